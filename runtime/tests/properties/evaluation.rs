//! Loaded scenarios evaluated on loaded recordings — both possibly mutated — and their reports
//! rendered: every check gives a verdict, none panics, whatever the numbers in the recording.

use agent_test_runtime::model::Transcript;
use agent_test_runtime::report::Report;
use agent_test_runtime::scenario::RunScenario;
use agent_test_runtime::scenario::Scenario;
use proptest::prelude::*;
use serde_json::Value;

use crate::mutate::{apply_all, mutations};
use crate::recordings::transcript;
use crate::scenarios::scenario;
use crate::{Seed, config, doc_file, seed_files};

/// Evaluates and renders the report in every form.
fn evaluate(scenario: &Scenario, transcript: &Transcript) {
    let report: Report = scenario.evaluate(transcript);
    for v in &report.verdicts {
        if v.status != agent_test_runtime::check::Status::Pass {
            assert!(
                !v.reason.trim().is_empty(),
                "a {:?} verdict without a reason: {}",
                v.status,
                v.label
            );
        }
    }
    let _ = report.to_string();
    let _ = report.headline();
    let _ = serde_json::to_string(&report).unwrap();
}

fn documented_scenario() -> Scenario {
    agent_test_runtime::load::load_json("scenario.json", &doc_file("scenario.json").text).unwrap()
}

fn documented_recording() -> Value {
    serde_json::from_str(&doc_file("recorded-run.json").text).unwrap()
}

/// The scenarios of the seed examples, and the documented one.
fn scenarios() -> &'static [Scenario] {
    static SCENARIOS: std::sync::OnceLock<Vec<Scenario>> = std::sync::OnceLock::new();
    SCENARIOS.get_or_init(|| {
        let mut all: Vec<Scenario> = seed_files()
            .iter()
            .flat_map(|s| {
                agent_test_runtime::load::cases_from_text(&s.text, &s.name, None)
                    .unwrap()
                    .into_iter()
                    .map(|c| c.scenario)
            })
            .collect();
        all.push(documented_scenario());
        all
    })
}

/// The seed examples of the vocabulary beyond the seed documents: PromptKit's assertion
/// registry (a misconfigured assertion included), Lamdis's variable-check operators, MCPLab's
/// tool input assertions and a scenario without a prompt.
pub const NEWER_SEEDS: &[&str] = &[
    "promptkit_registry.yaml",
    "promptkit_misconfigured.yaml",
    "lamdis_variable_operators.json",
    "mcplab_tool_input_assertions.yaml",
    "mcplab_without_prompt.yaml",
];

fn newer_seed() -> impl Strategy<Value = Seed> {
    let seeds: Vec<Seed> = seed_files()
        .iter()
        .filter(|s| NEWER_SEEDS.contains(&s.name.as_str()))
        .cloned()
        .collect();
    assert_eq!(seeds.len(), NEWER_SEEDS.len(), "a newer seed is missing");
    proptest::sample::select(seeds)
}

/// The scenarios a (possibly mutated) seed document loads as, if it still loads.
fn scenarios_of(doc: &Value, seed: &Seed) -> Vec<Scenario> {
    // YAML seeds are mutated as JSON, which is YAML too: read them under their own name.
    let text = doc.to_string();
    agent_test_runtime::load::cases_from_text(&text, &seed.name, None)
        .map(|cases| cases.into_iter().map(|c| c.scenario).collect())
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(config(128))]

    /// The documented scenario on mutated documented recordings.
    #[test]
    fn mutated_recordings_are_evaluated(mutations in mutations()) {
        let doc = apply_all(documented_recording(), &mutations);
        if let Ok(run) = agent_test_runtime::load::run_from_text(&doc.to_string(), "run.json", None) {
            evaluate(&documented_scenario(), &run.transcript);
        }
    }

    /// Mutated documented scenarios on the documented recording.
    #[test]
    fn mutated_scenarios_are_evaluated(mutations in mutations()) {
        let doc: Value = serde_json::from_str(&doc_file("scenario.json").text).unwrap();
        let doc = apply_all(doc, &mutations);
        if let Ok(scenario) = agent_test_runtime::load::load_json::<Scenario>("scenario.json", &doc.to_string()) {
            let run = agent_test_runtime::load::run_from_text(&documented_recording().to_string(), "run.json", None).unwrap();
            evaluate(&scenario, &run.transcript);
        }
    }

    /// Every seed example's scenario, and the documented one, on generated transcripts: odd
    /// text, turn numbers and counts at the edges of their types, call trees.
    #[test]
    fn seed_scenarios_on_generated_transcripts(t in transcript(), pick in any::<prop::sample::Index>()) {
        evaluate(pick.get(scenarios()), &t);
    }

    /// The newer vocabulary's seeds, as written and mutated once (an assertion type, operator,
    /// parameter or value turned into another, removed or duplicated: one change keeps about a
    /// quarter of them loadable), on generated transcripts whose variable bags hold the values
    /// their checks read: every check gives a verdict.
    #[test]
    fn mutated_newer_seeds_on_generated_transcripts(
        seed in newer_seed(),
        mutations in mutations(),
        t in transcript(),
    ) {
        let doc = seed.value().expect("a JSON or YAML seed");
        let mutated = apply_all(doc.clone(), &mutations[..1]);
        for scenario in scenarios_of(&doc, &seed).iter().chain(&scenarios_of(&mutated, &seed)) {
            evaluate(scenario, &t);
        }
    }

    /// Scenarios from the builders (every check, matcher and option, with odd values) on
    /// generated transcripts.
    #[test]
    fn generated_scenarios_on_generated_transcripts(s in scenario(), t in transcript()) {
        evaluate(&s, &t);
    }
}
