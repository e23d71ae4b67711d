//! Trace parsers, every format: random JSON and mutated fixtures. What a parser accepts is a
//! transcript that saves and reloads equal.

use agent_test_runtime::model::Transcript;
use agent_test_runtime::trace::{TraceFormat, parse};
use agent_test_runtime::{RecordedRun, ScenarioInfo};
use proptest::prelude::*;
use serde_json::Value;

use crate::mutate::{apply_all, mutations};
use crate::{arb_json, assert_message, config, trace_files};

/// Every format by name, and detection.
fn every_parse(doc: &Value) {
    for format in TraceFormat::ALL.map(Some).into_iter().chain([None]) {
        match parse(doc, format) {
            Ok(t) => reloads_equal(&t),
            Err(e) => {
                assert_message(&e.message, &format!("{format:?}"));
                let _ = e.to_string();
            }
        }
    }
}

/// A transcript read from a trace is what a recording keeps: it must reload as it was.
fn reloads_equal(t: &Transcript) {
    let run = RecordedRun {
        scenario: ScenarioInfo::new("trace"),
        transcript: t.clone(),
    };
    let json = serde_json::to_string(&run).expect("a recording serialises");
    match agent_test_runtime::load::run_from_text(&json, "run.json", None) {
        Ok(back) => assert_eq!(back, run, "{json}"),
        Err(e) => panic!("a recording does not reload: {e}: {json}"),
    }
}

/// The fixtures, parsed.
fn fixture() -> impl Strategy<Value = Value> {
    let docs: Vec<Value> = trace_files().iter().filter_map(|s| s.value()).collect();
    assert!(docs.len() >= 10, "the trace fixtures are missing");
    proptest::sample::select(docs)
}

#[test]
fn every_fixture_parses() {
    for seed in trace_files() {
        let doc = seed.value().unwrap();
        let t = parse(&doc, None).unwrap_or_else(|e| panic!("{}: {e}", seed.name));
        reloads_equal(&t);
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_json_never_panics(doc in arb_json()) {
        every_parse(&doc);
    }

    #[test]
    fn mutated_fixtures_never_panic(doc in fixture(), mutations in mutations()) {
        let doc = apply_all(doc, &mutations);
        every_parse(&doc);
    }
}
