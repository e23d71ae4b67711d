//! What checks compare with, below the checks themselves: expressions (evaluated against the
//! clock), regex patterns and plain text searches, dot paths into JSON, JSON Schemas, and the
//! one-to-one assignment that pairs unordered items.
//!
//! | module | holds |
//! |---|---|
//! | `expression` | the expression language at run time (parsed by the `agent-test-expr` crate) |
//! | `clock` | the instant `TODAY()` and `NOW()` mean, and its time zone |
//! | `pattern` | regexes, compiled once process-wide |
//! | `text_search` | contains / starts with / ends with / equals, without a regex where none is needed |
//! | `path` | dot paths into JSON values (`items[0].sku`) |
//! | `schema` | JSON Schema validation (the `schema` feature) |
//! | `assign` | maximum bipartite matching, for unordered lists and trajectories |

#[doc(hidden)]
pub mod assign;
#[doc(hidden)]
pub mod clock;
#[doc(hidden)]
pub mod expression;
#[doc(hidden)]
pub mod path;
#[doc(hidden)]
pub mod pattern;
#[doc(hidden)]
pub mod schema;
#[doc(hidden)]
pub mod text_search;
