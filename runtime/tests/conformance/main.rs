//! Conformance of the seed-format importers (`formats::*`) to their seed documents
//! (`shared/seeds/`) and to `shared/reference/semantics.md`.
//!
//! The cases are files, in `runtime/tests/fixtures/conformance/` (its README.md says how to add
//! one): per format, every example of the seed document, copied as written (fragments wrapped
//! into the smallest complete document), imported and evaluated passively on recorded runs that
//! pass it and fail it; the format's semantics, edge cases included; and malformed files, whose
//! errors name the file and the path. `table` checks them all; `bespoke` holds the few checks a
//! table cannot express.

mod bespoke;
mod self_test;
mod table;
