//! Conformance of the seed-format importers (`formats::*`) to their seed documents
//! (`shared/seeds/`) and to `shared/reference/semantics.md`.
//!
//! Per format: every example of the seed document, copied as written (fragments wrapped into
//! the smallest complete document, said so where it happens), imported and evaluated passively
//! on a run built by hand that passes it and one that fails it; a table of the format's
//! semantics, edge cases included; and malformed files, whose errors name the file and the path.

mod errors;
mod lamdis;
mod mcplab;
mod mibo;
mod morganabench;
mod promptkit;
mod support;
