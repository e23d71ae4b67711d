//! The readers of [agent-test](https://docs.rs/agent-test): what other software writes, read
//! into the core's model — the seed systems' test suites (`formats`), agents' traces in a dozen
//! frameworks' shapes (`trace`), and the one loader every front door reads through (`load`:
//! scenarios, recordings, test files). Text in, data out: no network, no async runtime. The
//! runtime builds on it, and the `agent_test!` macro's `files "..."` reads test files with it
//! at compile time. Users reach it through the `agent-test` facade.
//!
//! ```
//! use agent_test::trace::{TraceFormat, parse};
//! use serde_json::json;
//! let trace = json!([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Hello!"}]);
//! let transcript = parse(&trace, Some(TraceFormat::OpenAiChat)).unwrap();
//! assert_eq!(transcript.final_reply(), "Hello!");
//! ```

// External data must never crash a run: the readers answer it with errors, not panics.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

/// One field of every entry of a `const` table, in the table's order, as an array (the format
/// tables' `ALL`): written once, so a table's row is its only registration. `$fill` is any
/// value of the field's type, overwritten.
macro_rules! table_column {
    ($table:expr, $field:ident, $fill:expr) => {{
        let mut out = [$fill; $table.len()];
        let (mut slots, mut rows): (&mut [_], &[_]) = (&mut out, &$table);
        while let ([slot, more @ ..], [row, others @ ..]) = (slots, rows) {
            *slot = row.$field;
            (slots, rows) = (more, others);
        }
        out
    }};
}

pub mod formats;
pub mod load;
pub mod trace;
