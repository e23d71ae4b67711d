//! `agent_test_files!`: a test per case of seed-format files, without an agent when every case
//! carries its recorded run.

use agent_test::prelude::*;

agent_test_files!("tests/integration/cases/*.jsonl");

/// The generated tests are ordinary functions: the two cases of `recorded.jsonl`.
#[test]
fn each_case_is_a_test_named_after_file_and_case() {
    let _: fn() = recorded__recorded_1;
    let _: fn() = recorded__recorded_2;
}
