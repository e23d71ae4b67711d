//! `judge = ...;` and `repeat = ...;` in `agent_test!`, with an in-process scripted judge
//! model (the wire tests cover the HTTP clients), and the failure reports of judged and
//! repeated scenarios.

use std::sync::atomic::{AtomicUsize, Ordering};

use agent_test::agent::BoxFuture;
use agent_test::agent::{Agent, agent_fn};
use agent_test::check::Status;
use agent_test::judge::{Completion, JudgeModel, JudgePrompt, ModelError};
use agent_test::judge::{Judge, JudgeMode};
use agent_test::prelude::*;
use agent_test::{ScenarioRun, Suite};

/// Grades "mentions X" criteria by whether the text contains X; counts its requests.
struct KeywordJudge(&'static AtomicUsize);

impl JudgeModel for KeywordJudge {
    fn id(&self) -> String {
        "keyword-judge".into()
    }

    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            let v: serde_json::Value =
                serde_json::from_str(&prompt.user).map_err(|e| ModelError::fatal(e.to_string()))?;
            let results: Vec<serde_json::Value> = v["checks"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| {
                    let word = c["criteria"].as_str().unwrap_or_default().trim_start_matches("mentions ");
                    let text = c["material"]["text"].as_str().unwrap_or_default();
                    let score = if text.contains(word) { 0.95 } else { 0.1 };
                    json!({"id": c["id"], "score": score, "pass": score > 0.5, "reasoning": format!("looked for {word:?}")})
                })
                .collect();
            Ok(Completion {
                text: json!({ "results": results }).to_string(),
                usage: None,
            })
        })
    }
}

static SUITE_REQUESTS: AtomicUsize = AtomicUsize::new(0);
static ALTERNATING: AtomicUsize = AtomicUsize::new(0);

fn keyword_judge() -> Judge {
    Judge::new(KeywordJudge(&SUITE_REQUESTS)).mode(JudgeMode::Off)
}

/// Mentions the refund in two runs of three.
fn sometimes_forgetful() -> impl Agent {
    agent_fn(|_r| async {
        if ALTERNATING.fetch_add(1, Ordering::SeqCst) % 3 == 2 {
            "Done."
        } else {
            "Your refund is on its way."
        }
    })
}

agent_test! {
    agent = sometimes_forgetful();
    judge = keyword_judge();

    /// Two runs of three must pass; the report counts each check's passes.
    scenario judged_and_repeated {
        repeat = 3;
        min_passes = 2;
        user "Refund ORD-1 please" {
            expect judge("mentions refund");
        }
    }
}

#[tokio::test]
async fn a_repeated_scenario_reports_its_pass_counts_and_flaky_checks() {
    static REQUESTS: AtomicUsize = AtomicUsize::new(0);
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let mut repeats = agent_test::Repeats::new();
    let report = loop {
        let agent = agent_fn(|_r| async {
            if CALLS.fetch_add(1, Ordering::SeqCst) % 2 == 1 {
                "Done."
            } else {
                "Refund issued."
            }
        });
        let suite = Suite::new()
            .agent(agent)
            .judge(Judge::new(KeywordJudge(&REQUESTS)).mode(JudgeMode::Off))
            .repeat(4)
            .min_passes(3);
        let info = agent_test::ScenarioInfo::new("flaky refund").repeated(repeats.index());
        let mut run = ScenarioRun::with_info(suite, info);
        run.user("refund please").await;
        run.expect(judge("mentions Refund"));
        run.expect(reply().ends_with("."));
        if let Some(r) = repeats.record(run).await {
            break r;
        }
    };
    assert_eq!(
        REQUESTS.load(Ordering::SeqCst),
        4,
        "one judge request per run"
    );
    assert!(!report.passed());
    let text = report.to_string();
    assert!(
        text.starts_with("agent-test: scenario `flaky refund` FAILED: 2 of 4 runs passed (3 required); the run shown: 1 failed, 1 passed (2 checks)"),
        "{text}"
    );
    assert!(
        text.contains(
            "repeats: 2 of 4 runs passed (3 required): pass rate 0.50, 95% CI 0.15–0.85; pass^3 0.00\n  \
             pass^k  k=1 0.50  k=2 0.17  k=3 0.00  k=4 0.00   (all of k runs pass)\n  \
             pass@k  k=1 0.50  k=2 0.83  k=3 1.00  k=4 1.00   (at least one of k runs passes)\n  \
             ✗ 2 of 4 runs passed, 3 required\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "  2/4  0.50 (0.15–0.85)  conversation  judge \"mentions Refund\" (score ≥ 0.8)   ← flaky\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("  4/4  1.00 (0.51–1.00)  conversation  reply ends with \".\"\n"),
        "{text}"
    );
    assert!(
        text.contains("score 0.1 < 0.8: looked for \"Refund\""),
        "{text}"
    );
    let summary = report.repeats.as_ref().unwrap();
    assert!(summary.checks[0].flaky() && !summary.checks[1].flaky());
}

#[tokio::test]
async fn checks_depending_on_judged_checks_through_a_chain_are_graded() {
    static REQUESTS: AtomicUsize = AtomicUsize::new(0);
    let agent = agent_fn(|_r| async { "Refund issued.".to_owned() });
    let suite = Suite::new()
        .agent(agent)
        .judge(Judge::new(KeywordJudge(&REQUESTS)).mode(JudgeMode::Off));
    let mut run = ScenarioRun::new(suite, "chain");
    run.user("refund please").await;
    run.expect(judge("mentions Refund").id("judged"));
    run.expect(reply().contains("issued").id("plain").depends_on("judged"));
    run.expect(judge("mentions issued").depends_on("plain"));
    let report = run.report().await;
    let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    assert_eq!(statuses, [Status::Pass; 3], "{report}");
    assert_eq!(REQUESTS.load(Ordering::SeqCst), 1);
}
