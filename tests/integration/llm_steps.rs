//! `extract` and `simulate` in `agent_test!`, with an in-process scripted model playing the
//! extractor and the customer; and their failures, which are error verdicts, never panics.

use agent_test::agent::BoxFuture;
use agent_test::agent::{Agent, AgentRequest, agent_fn};
use agent_test::check::Status;
use agent_test::judge::{Completion, JudgeModel, JudgePrompt, ModelError};
use agent_test::judge::{Judge, JudgeMode};
use agent_test::prelude::*;
use agent_test::{Extraction, ScenarioRun, Suite, simulated_user};

/// Extracts `BK-…` references, and plays a customer who wants a booking and is satisfied once
/// the agent gives a reference.
struct ScriptedModel;

impl JudgeModel for ScriptedModel {
    fn id(&self) -> String {
        "scripted-model".into()
    }

    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        let input: serde_json::Value = serde_json::from_str(&prompt.user).unwrap_or_default();
        let answer = if input.get("objective").is_some() {
            let said = input["conversation"].to_string();
            json!({"objective_met": said.contains("BK-"), "message": "Book the Sol Hostel for 2 nights"})
        } else {
            let text = input["text"].as_str().unwrap_or_default();
            match text.split_whitespace().find(|w| w.starts_with("BK-")) {
                Some(w) => json!({"found": true, "value": w.trim_end_matches('.')}),
                None => json!({"found": false, "value": null}),
            }
        };
        Box::pin(async move {
            Ok(Completion {
                text: answer.to_string(),
                usage: None,
            })
        })
    }
}

fn scripted() -> Judge {
    Judge::new(ScriptedModel).mode(JudgeMode::Off)
}

fn booking_agent() -> impl Agent {
    agent_fn(|req: AgentRequest| async move {
        if req.input.contains("BK-4100") {
            "Booking BK-4100 is confirmed for 2 nights.".to_owned()
        } else if req.input.contains("Book") {
            "Booked! Your reference is BK-4100.".to_owned()
        } else {
            "How can I help?".to_owned()
        }
    })
}

agent_test! {
    agent = booking_agent();
    judge = scripted();

    /// A value the agent said, extracted by the model, feeds the next turn.
    scenario extracted_reference_feeds_the_next_turn {
        user "Book the Sol Hostel for 2 nights";
        let reference: String = extract "the booking reference";
        assert_eq!(reference, "BK-4100");
        user format!("Is {reference} confirmed?") {
            expect reply().contains("confirmed");
        }
    }

    /// The simulated customer pursues the booking; the checks run after each of its turns.
    scenario simulated_customer_books_a_room {
        simulate simulated_user("book a room and get a booking reference").turns(1..=3) {
            expect reply().contains("BK-");
        }
        expect no_tools();
    }
}

#[tokio::test]
async fn failed_extractions_and_simulations_are_error_verdicts_and_the_run_goes_on() {
    let suite = Suite::new().agent(booking_agent()).judge(scripted());
    let mut run = ScenarioRun::new(suite, "nothing to extract");
    run.user("hello").await;
    let missing: String = run.extract("the booking reference").await;
    assert_eq!(missing, "");
    let count: u32 = run
        .extract(Extraction::new("the booking reference").from_transcript())
        .await;
    assert_eq!(count, 0);
    run.expect(reply().contains("help"));
    let report = run.report().await;
    assert!(!report.passed());
    assert_eq!(
        report.verdicts[0].label,
        "extract \"the booking reference\""
    );
    assert_eq!(report.verdicts[0].status, Status::Error);
    assert_eq!(
        report.verdicts[0].reason,
        "the model did not find \"the booking reference\" in the text"
    );
    assert_eq!(
        report.verdicts[2].status,
        Status::Pass,
        "the checks still ran"
    );

    // No model at all: the simulation is an error and no turn runs.
    let mut run = ScenarioRun::new(Suite::new().agent(booking_agent()), "no model");
    run.simulate(simulated_user("book a room"), |_| {}).await;
    let report = run.report().await;
    if std::env::var_os("AGENT_TEST_JUDGE_MODEL").is_none() {
        assert_eq!(report.verdicts[0].status, Status::Error);
        assert!(
            report.verdicts[0]
                .reason
                .starts_with("no model to play the user")
        );
        assert!(report.transcript.turns.is_empty());
    }

    // An objective never met within the turns fails, after exactly the maximum turns.
    let agent = agent_fn(|_r| async { "How can I help?" });
    let mut run = ScenarioRun::new(Suite::new().agent(agent).judge(scripted()), "stubborn");
    run.simulate(simulated_user("get a reference").turns(1..=2), |run| {
        run.expect_turn(reply().contains("help"));
    })
    .await;
    let report = run.report().await;
    assert_eq!(report.transcript.turns.len(), 2);
    let objective = &report.verdicts[0];
    assert_eq!(
        objective.label,
        "simulated user reached the objective \"get a reference\""
    );
    assert_eq!(
        (objective.status, objective.reason.as_str()),
        (Status::Fail, "not met within 2 turns")
    );
    assert_eq!(report.verdicts.len(), 3, "one check per simulated turn");
}

/// Answers from a script, then repeats the last answer; counts its calls.
struct Script(
    std::sync::Mutex<Vec<&'static str>>,
    std::sync::atomic::AtomicUsize,
);

impl JudgeModel for Script {
    fn id(&self) -> String {
        "script".into()
    }

    fn complete<'a>(
        &'a self,
        _prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut answers = self.0.lock().unwrap();
        let text = if answers.len() > 1 {
            answers.remove(0)
        } else {
            answers[0]
        };
        Box::pin(async move {
            Ok(Completion {
                text: text.to_owned(),
                usage: None,
            })
        })
    }
}

#[tokio::test]
async fn answers_missing_required_fields_are_asked_again_then_an_error() {
    let script = |answers: Vec<&'static str>| {
        let model = std::sync::Arc::new(Script(
            std::sync::Mutex::new(answers),
            std::sync::atomic::AtomicUsize::new(0),
        ));
        (
            model.clone(),
            Judge::new(model)
                .mode(JudgeMode::Off)
                .backoff(std::time::Duration::ZERO),
        )
    };
    let (model, judge) = script(vec![
        r#"{"value": "BK-1"}"#,
        r#"{"found": true, "value": "BK-1"}"#,
    ]);
    let mut run = ScenarioRun::new(Suite::new().agent(booking_agent()).judge(judge), "retry");
    run.user("Book the Sol Hostel").await;
    let reference: String = run.extract("the booking reference").await;
    assert_eq!(reference, "BK-1");
    assert_eq!(model.1.load(std::sync::atomic::Ordering::SeqCst), 2);

    let (model, judge) = script(vec![r#"{"value": "BK-1"}"#]);
    let mut run = ScenarioRun::new(Suite::new().agent(booking_agent()).judge(judge), "never");
    run.user("Book the Sol Hostel").await;
    let reference: String = run.extract("the booking reference").await;
    assert_eq!(reference, "");
    assert_eq!(
        model.1.load(std::sync::atomic::Ordering::SeqCst),
        3,
        "1 request + 2 retries"
    );
    let report = run.report().await;
    assert_eq!(report.verdicts[0].status, Status::Error);
    assert_eq!(
        report.verdicts[0].reason,
        "the model's answer has no `found`: {\"value\": \"BK-1\"} (after 3 requests)"
    );
}
