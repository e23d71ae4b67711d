//! Compile-fail tests of `agent_test!`: each `tests/ui/*.rs` has a `.stderr` file with the
//! messages rustc prints, on the user's spans.
//!
//! The `.stderr` text depends on the compiler version, so the test runs only on the toolchain
//! the files were written with (rustc 1.95). Regenerate them with
//! `TRYBUILD=overwrite cargo test --test ui`.

#[rustversion::attr(not(stable(1.95)), ignore = "UI snapshots are written for rustc 1.95")]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

/// `files "..."`: a malformed test file is a compile error naming the file and the field.
#[cfg(feature = "files")]
#[rustversion::attr(not(stable(1.95)), ignore = "UI snapshots are written for rustc 1.95")]
#[test]
fn ui_files() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui_files/*.rs");
}
