//! What a table of verdicts cannot say, kept in Rust with its documents in the fixture tree:
//! MCPLab's judged checks graded by a scripted judge (what the judge is sent, one request for
//! several checks), and a set of tools read from a verdict's violations.

use agent_test_runtime::check::Status::{Fail, Pass};
use agent_test_runtime::formats::ImportedCase;
use agent_test_runtime::model::{Call, Reply, ToolErrorKind, Transcript, Turn};
use agent_test_runtime::scenario::RunScenario;
use serde_json::json;

use crate::table::{FOLDERS, document, root};

/// The only case of the document in the fixture folder `path` (`<format>/<case>`), loaded as
/// the table test loads it.
fn fixture(path: &str) -> ImportedCase {
    let dir = root().join(path);
    let format = FOLDERS
        .iter()
        .find(|(name, _)| path.starts_with(&format!("{name}/")))
        .expect("a format folder")
        .1;
    let (file, text) = document(&dir).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = agent_test_runtime::load::cases_from_text(&text, file.as_str(), format)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(cases.len(), 1, "{path}");
    cases.remove(0)
}

/// A transcript of one turn (10 ms).
fn one_turn(input: &str, reply: Reply) -> Transcript {
    Transcript::new(vec![Turn::new(0, input, reply, 10)])
}

/// The reason names each forbidden tool once, however often it was called (the table checks
/// it); the violations list each offending *call* with its position, as the native
/// `forbidden_tools` does, so `drop` called twice has two. semantics.md counts one failure per
/// tool: the set of tools they name is exactly the forbidden ones called.
#[test]
fn forbidden_tool_violations_name_the_tools_called() {
    let folder = "mcplab/one-violation-per-missing-or-forbidden-tool";
    let case = fixture(folder);
    // Tools `a`, `drop`, `wipe`, `drop`, in that order.
    let path = root().join(folder).join("runs/fails.json");
    let text = std::fs::read_to_string(&path).expect("the run");
    let run = agent_test_runtime::load::run_from_text(&text, &path, None).expect("a recorded run");
    let report = case.scenario.evaluate(&run.transcript);
    let forbidden = report
        .verdicts
        .iter()
        .find(|v| v.label.contains("tools not called"))
        .expect("the forbidden tools' verdict");
    let mut tools: Vec<&str> = forbidden
        .details
        .violations
        .iter()
        .filter_map(|v| v.evidence.as_ref()?.get("tool")?.as_str())
        .collect();
    tools.sort_unstable();
    tools.dedup();
    assert_eq!(tools, ["drop", "wipe"]);
}

/// A judge that passes the checks named in `pass` and counts requests and checks.
struct PerLabel {
    pass: Vec<&'static str>,
    seen: std::sync::Mutex<(usize, Vec<String>)>,
    /// Each check's material, as the judge received it.
    materials: std::sync::Mutex<Vec<serde_json::Value>>,
}

impl PerLabel {
    fn new(pass: Vec<&'static str>) -> Self {
        PerLabel {
            pass,
            seen: std::sync::Mutex::default(),
            materials: std::sync::Mutex::default(),
        }
    }
}

impl agent_test_runtime::judge::JudgeModel for PerLabel {
    fn id(&self) -> String {
        "per-label".into()
    }
    fn complete<'a>(
        &'a self,
        prompt: &'a agent_test_runtime::judge::JudgePrompt,
    ) -> agent_test_runtime::agent::BoxFuture<
        'a,
        Result<agent_test_runtime::judge::Completion, agent_test_runtime::judge::ModelError>,
    > {
        Box::pin(async move {
            let asked: serde_json::Value = serde_json::from_str(&prompt.user).unwrap_or_default();
            let mut seen = self.seen.lock().unwrap();
            seen.0 += 1;
            let mut results = Vec::new();
            for c in asked["checks"].as_array().into_iter().flatten() {
                let name = c["material"]["check"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                let pass = self.pass.contains(&name.as_str());
                seen.1.push(name);
                self.materials.lock().unwrap().push(c["material"].clone());
                results.push(json!({"id": c["id"], "score": if pass { 1.0 } else { 0.0 }, "pass": pass, "reasoning": "scripted"}));
            }
            Ok(agent_test_runtime::judge::Completion {
                text: json!({ "results": results }).to_string(),
                usage: None,
            })
        })
    }
}

/// Agent assertions are graded per label: two with the same prompt are two checks with two
/// grades, still sent in one request.
#[test]
fn agent_assertions_are_graded_per_label() {
    let case = fixture("mcplab/judge-grades-per-label");
    let model = std::sync::Arc::new(PerLabel::new(vec!["first"]));
    let judge = agent_test_runtime::judge::Judge::new(model.clone())
        .mode(agent_test_runtime::judge::JudgeMode::Off);
    let report = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(case.scenario.evaluator().evaluate_judged(
            one_turn(
                "What happened?",
                Reply::text("All done.").call(Call::tool("search", json!({}))),
            ),
            Some(&judge),
        ));
    let got: Vec<_> = report
        .verdicts
        .iter()
        .map(|v| (v.label.as_str(), v.status))
        .collect();
    assert_eq!(got, [("first", Pass), ("second", Fail)], "{report}");
    let seen = model.seen.lock().unwrap();
    assert_eq!(seen.0, 1, "one request");
    assert_eq!(seen.1, ["first", "second"]);
}

/// What MCPLab's judge sees (`packages/core/src/eval.ts`, `evaluateScenarioWithAgentChecks`):
/// the final answer only without `agent_context`; with it, the scenario's prompt, the called
/// tools' names in order (failed calls too), and their inputs, as each flag says.
#[test]
fn the_judge_sees_what_agent_context_names() {
    let material = |folder: &str| {
        let case = fixture(folder);
        let model = std::sync::Arc::new(PerLabel::new(vec!["answered"]));
        let judge = agent_test_runtime::judge::Judge::new(model.clone())
            .mode(agent_test_runtime::judge::JudgeMode::Off);
        let run = one_turn(
            "When did the incident start?",
            Reply::text("At 09:12 UTC.")
                .call(Call::tool("search_logs", json!({"q": "incident"})))
                .call(
                    Call::tool("get_event", json!({"id": 7}))
                        .failed_with(ToolErrorKind::Execution, json!("timeout")),
                ),
        );
        let report = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(case.scenario.evaluator().evaluate_judged(run, Some(&judge)));
        let got: Vec<_> = report
            .verdicts
            .iter()
            .map(|v| (v.label.as_str(), v.status))
            .collect();
        assert_eq!(got, [("answered", Pass)], "{report}");
        let seen = model.materials.lock().unwrap();
        assert_eq!(seen.len(), 1);
        seen[0].clone()
    };
    assert_eq!(
        material("mcplab/judge-sees-answer-only"),
        json!({"check": "answered", "text": "At 09:12 UTC."})
    );
    assert_eq!(
        material("mcplab/judge-sees-prompt"),
        json!({"check": "answered", "text": "At 09:12 UTC.", "user_message": "When did the incident start?"})
    );
    assert_eq!(
        material("mcplab/judge-sees-tool-sequence"),
        json!({"check": "answered", "text": "At 09:12 UTC.", "tool_sequence": ["search_logs", "get_event"]})
    );
    assert_eq!(
        material("mcplab/judge-sees-tool-inputs"),
        json!({"check": "answered", "text": "At 09:12 UTC.", "tool_inputs": [
            {"tool": "search_logs", "arguments": {"q": "incident"}},
            {"tool": "get_event", "arguments": {"id": 7}},
        ]})
    );
}
