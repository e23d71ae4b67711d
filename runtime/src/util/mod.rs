//! Small helpers every layer may use: text for messages, diffs, strict reading of JSON and
//! YAML input, and where agent-test writes its files. Nothing here knows checks, agents or
//! runs.

pub(crate) mod diff;
pub(crate) mod dirs;
pub(crate) mod input;
pub(crate) mod json;
pub(crate) mod python_literal;
pub(crate) mod shared_strings;
pub(crate) mod text;
pub(crate) mod typed;

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
pub(crate) use table_column;
