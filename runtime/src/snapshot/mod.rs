//! Snapshots: a reply or the tool calls kept in a file beside the test
//! (`snapshots/<module>__<scenario>__<n>.snap`) and compared on every run — the accept step when
//! an agent changes on purpose.
//!
//! A snapshot check ([`reply().snapshot()`](agent_test_core::check::Text::snapshot),
//! [`tool("x").snapshot()`](agent_test_core::check::ToolCheck::snapshot),
//! `any_tool().snapshot()` for the whole trajectory) passes when the run gives what the accepted
//! snapshot holds. When it differs, or none was accepted yet, the check does not pass and the
//! run writes what it saw as a pending `….snap.new` ([`SNAPSHOTS_ENV`] says otherwise);
//! `agent-test review` shows each pending snapshot as a diff to accept or reject
//! ([`Pending`]).
//!
//! ```
//! use agent_test::prelude::*;
//! let check = reply().snapshot();
//! assert_eq!(check.describe(), "reply matches its snapshot");
//! ```

mod file;
mod review;
mod store;

pub use file::SnapshotFile;
pub use review::Pending;
pub use store::SNAPSHOTS_ENV;
pub(crate) use store::{Snapshots, live_model_warning};
