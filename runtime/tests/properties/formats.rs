//! The five seed formats: random text, edited and mutated seed examples, through every entry
//! point (detection, a named format, text and parsed values, JSON, YAML and JSONL).

use std::path::Path;

use agent_test_runtime::LoadError;
use agent_test_runtime::formats::{self, ImportedCase, SeedFormat};
use proptest::prelude::*;
use serde_json::Value;

use crate::mutate::{apply_all, edit_text, edits, mutations};
use crate::{Seed, arb_json, assert_message, config, seed_files};

const FILES: &[&str] = &["case.json", "case.yaml", "cases.jsonl", "case.yml", "case"];

/// The answer of a loader: cases, or an error that says something.
pub fn checked(result: Result<Vec<ImportedCase>, LoadError>) -> Vec<ImportedCase> {
    match result {
        Ok(cases) => cases,
        Err(e) => {
            assert_message(&e.message, &e);
            let _ = e.to_string();
            Vec::new()
        }
    }
}

/// Text through every entry point: detection and each format, under each kind of file name.
fn every_loader(text: &str, file: &str) -> Vec<ImportedCase> {
    let mut all = Vec::new();
    let _ = formats::detect(text, file);
    for format in SeedFormat::ALL.map(Some).into_iter().chain([None]) {
        all.extend(checked(agent_test_runtime::load::cases_from_text(
            text,
            Path::new(file),
            format,
        )));
    }
    all
}

/// A parsed document through every format's value reader.
fn every_value_loader(doc: &Value, file: &str) {
    let _ = formats::detect_value(doc);
    for format in SeedFormat::ALL {
        checked(agent_test_runtime::load::cases_from_text(
            &doc.to_string(),
            Path::new(file),
            Some(format),
        ));
    }
}

fn seed() -> impl Strategy<Value = Seed> {
    proptest::sample::select(seed_files().to_vec())
}

#[test]
fn every_seed_loads() {
    assert!(seed_files().len() >= 60, "the seed examples are missing");
    for seed in seed_files() {
        let cases =
            agent_test_runtime::load::cases_from_text(&seed.text, Path::new(&seed.name), None)
                .unwrap_or_else(|e| panic!("{}: {e}", seed.name));
        assert!(!cases.is_empty(), "{}", seed.name);
    }
}

/// The mutations reach the newer vocabulary: its keys, assertion types and operators are words
/// that renames, retypes and odd strings use.
#[test]
fn the_vocabulary_reaches_the_newer_types() {
    let words = crate::vocabulary();
    let missing: Vec<&str> = [
        // PromptKit's registry and parameters.
        "tool_call_sequence",
        "tool_call_chain",
        "tools_not_called_with_args",
        "tools_not_called_session",
        "tool_args_session",
        "tool_args_excluded_session",
        "tools_called_session",
        "content_includes_any",
        "content_not_includes",
        "json_path",
        "json_schema",
        "json_valid",
        "tool_result_matches",
        "tool_result_includes",
        "no_tool_errors",
        "latency_budget",
        "min_length",
        "forbidden_args",
        "excluded_args",
        "expect_match",
        "jmespath_expression",
        "should_trigger",
        "validator_type",
        "ignore_validation",
        "require_args",
        "result_matches",
        "no_error",
        // Lamdis's variable checks.
        "variable_check",
        "operator",
        "rightValue",
        "neq",
        "gte",
        "not_contains",
        "regex",
        "not_exists",
        // MCPLab's tool input assertions.
        "tool_input_assertions",
        "jsonpath",
        "contains",
    ]
    .into_iter()
    .filter(|w| !words.iter().any(|v| v == w))
    .collect();
    assert!(missing.is_empty(), "not in the vocabulary: {missing:?}");
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn random_text_never_panics(
        text in prop_oneof![any::<String>(), arb_json().prop_map(|v| v.to_string())],
        file in proptest::sample::select(FILES),
    ) {
        every_loader(&text, file);
    }

    #[test]
    fn edited_seeds_never_panic(seed in seed(), edits in edits()) {
        let text = edit_text(&seed.text, &edits);
        every_loader(&text, &seed.name);
    }

    /// Mutated as JSON, then read as JSON, as YAML (JSON is YAML) and as a parsed value.
    #[test]
    fn mutated_seeds_never_panic(seed in seed(), mutations in mutations()) {
        let Some(doc) = seed.value() else { return Ok(()) };
        let doc = apply_all(doc, &mutations);
        let text = doc.to_string();
        for file in ["case.json", "case.yaml"] {
            every_loader(&text, file);
        }
        every_value_loader(&doc, "case.json");
    }
}
