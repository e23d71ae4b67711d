//! A Lamdis test run live: request steps against a local backend, an extraction by a local
//! OpenAI-compatible model, interpolation of the variable bag, and a variable check.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use agent_test_runtime::agent::{AgentRequest, agent_fn};
use agent_test_runtime::check::Status;
use agent_test_runtime::judge::{Judge, OpenAiJudge};
use agent_test_runtime::scenario::{RunScenario, Step};
use agent_test_runtime::{Suite, Verdict};
use axum::Router;
use axum::routing::post;
use serde_json::{Value, json};

use super::judge_server::{Behaviour, judge_server};
use super::servers::serve;

/// The seed's "Complete Test Example", as written.
const ACCOUNT_TRANSFER: &str = r#"{ "id": "account-transfer-test", "name": "Account Transfer Flow", "steps": [ { "type": "request", "id": "setup", "requestId": "accounts.create_test", "inputMappings": { "balance": 10000 }, "saveAs": "sourceAccount" }, { "type": "message", "role": "user", "content": "I'd like to transfer $500 to my savings account" }, { "type": "assistant_check", "mode": "judge", "name": "Verify transfer confirmation", "rubric": "The assistant must confirm the transfer amount and ask for confirmation before proceeding", "threshold": 0.8 }, { "type": "message", "role": "user", "content": "Yes, please confirm the transfer" }, { "type": "extract", "variableName": "transferId", "description": "The transfer confirmation ID or reference number" }, { "type": "request", "id": "verify", "requestId": "transfers.get", "inputMappings": { "transferId": "${bag.var.transferId}" } }, { "type": "assistant_check", "mode": "variable_check", "variablePath": "bag.steps.verify.output.status", "expectEquals": "completed" } ] }"#;

/// A backend: creates accounts, and reports a transfer's status (`status` for every id).
async fn backend(status: &'static str) -> (String, Arc<Mutex<Vec<(String, Value)>>>) {
    let log: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
    let (l1, l2) = (log.clone(), log.clone());
    let router = Router::new()
        .route(
            "/accounts",
            post(move |axum::Json(body): axum::Json<Value>| async move {
                l1.lock().expect("log").push(("accounts".into(), body));
                axum::Json(json!({"accountId": "acct-1", "balance": 10000}))
            }),
        )
        .route(
            "/transfers/get",
            post(move |axum::Json(body): axum::Json<Value>| async move {
                l2.lock()
                    .expect("log")
                    .push(("transfers".into(), body.clone()));
                axum::Json(json!({"transferId": body["transferId"], "status": status}))
            }),
        );
    (serve(router).await, log)
}

fn verdict<'a>(verdicts: &'a [Verdict], kind: &str) -> &'a Verdict {
    verdicts
        .iter()
        .find(|v| v.check == kind)
        .unwrap_or_else(|| panic!("no {kind} verdict in {verdicts:?}"))
}

async fn run(
    status: &'static str,
    requests: Option<Value>,
) -> (agent_test_runtime::report::Report, Vec<(String, Value)>) {
    let (backend_url, log) = backend(status).await;
    // The model first extracts the reference, then grades the judge check.
    let (judge_url, _judge) = judge_server(vec![
        Behaviour::Say(r#"{"found": true, "value": "TR-7781"}"#),
        Behaviour::Say(
            r#"{"results": [{"id": "c1", "score": 0.9, "pass": true, "reasoning": "confirms $500 and asks"}]}"#,
        ),
    ])
    .await;
    let agent = agent_fn(|req: AgentRequest| async move {
        if req.turn == 0 {
            "You want to transfer $500 to your savings account. Shall I proceed?"
        } else {
            "Done. Your transfer reference is TR-7781."
        }
    });
    let judge = Judge::new(
        OpenAiJudge::new("judge-model")
            .base_url(&judge_url)
            .api_key("sk"),
    )
    .cache_dir(std::env::temp_dir().join(format!(
        "agent-test-data-steps-{}-{status}",
        std::process::id()
    )))
    .backoff(Duration::from_millis(5));
    let requests = requests.unwrap_or_else(|| {
        json!({
            "accounts.create_test": {"method": "POST", "url": format!("{backend_url}/accounts")},
            "transfers.get": format!("{backend_url}/transfers/get"),
        })
    });
    let scenario = agent_test_runtime::load::cases_from_text(
        ACCOUNT_TRANSFER,
        "transfer.json",
        Some(agent_test_runtime::formats::SeedFormat::Lamdis),
    )
    .expect("loads")
    .remove(0)
    .scenario;
    let suite = Suite::new()
        .agent(agent)
        .judge(judge)
        .context("requests", requests);
    let report = scenario.run(suite).await;
    let calls = log.lock().expect("log").clone();
    (report, calls)
}

#[tokio::test]
async fn the_seeds_transfer_test_runs_with_requests_extraction_and_a_variable_check() {
    let scenario = agent_test_runtime::load::cases_from_text(
        ACCOUNT_TRANSFER,
        "transfer.json",
        Some(agent_test_runtime::formats::SeedFormat::Lamdis),
    )
    .expect("loads")
    .remove(0)
    .scenario;
    assert!(scenario.interpolate);
    assert!(
        matches!(&scenario.steps[0], Step::Request { request, .. } if request == "accounts.create_test")
    );
    assert!(
        matches!(&scenario.steps[3], Step::Extract { name, transcript: false, .. } if name == "transferId")
    );
    assert!(
        matches!(&scenario.steps[5], Step::CheckVariable { path, .. } if path == "bag.steps.verify.output.status")
    );

    let (report, calls) = run("completed", None).await;
    assert!(report.passed(), "{report}");
    // The setup request got its input; the verification got the extracted reference.
    assert_eq!(calls[0], ("accounts".into(), json!({"balance": 10000})));
    assert_eq!(
        calls[1],
        ("transfers".into(), json!({"transferId": "TR-7781"}))
    );
    assert_eq!(verdict(&report.verdicts, "variable").status, Status::Pass);
    assert_eq!(verdict(&report.verdicts, "judge").status, Status::Pass);
    // The recording keeps the bag, so `agent-test eval` judges the variable check on it.
    let kept: Vec<&str> = report
        .transcript
        .variables
        .iter()
        .map(|v| v.path.as_str())
        .collect();
    assert_eq!(
        kept,
        [
            "var.sourceAccount",
            "steps.setup.output",
            "var.transferId",
            "steps.verify.output"
        ]
    );
    let again = scenario.evaluator().evaluate(report.transcript.clone());
    assert_eq!(verdict(&again.verdicts, "variable").status, Status::Pass);
}

#[tokio::test]
async fn a_wrong_variable_fails_and_a_missing_request_definition_is_an_error() {
    let (report, _) = run("pending", None).await;
    assert!(!report.passed());
    let v = verdict(&report.verdicts, "variable");
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        r#"bag.steps.verify.output.status: expected "completed", got "pending""#
    );
    // Every other check is still evaluated.
    assert_eq!(verdict(&report.verdicts, "judge").status, Status::Pass);

    let (report, calls) = run("completed", Some(json!({}))).await;
    assert!(calls.is_empty());
    let errors: Vec<&Verdict> = report
        .verdicts
        .iter()
        .filter(|v| v.check == "request")
        .collect();
    assert_eq!(errors.len(), 2, "{report}");
    assert_eq!(errors[0].status, Status::Error);
    assert!(
        errors[0].reason.starts_with(
            "no request named `accounts.create_test`: define it in the `requests` context variable"
        ),
        "{}",
        errors[0].reason
    );
    // A misspelt method, and a GET with inputs, are errors naming the request.
    let (report, _) = run(
        "completed",
        Some(json!({
            "accounts.create_test": {"method": "PSOT", "url": "http://127.0.0.1:9/a"},
            "transfers.get": {"method": "get", "url": "http://127.0.0.1:9/t"},
        })),
    )
    .await;
    let reasons: Vec<&str> = report
        .verdicts
        .iter()
        .filter(|v| v.check == "request")
        .map(|v| v.reason.as_str())
        .collect();
    assert_eq!(
        reasons,
        [
            "request `accounts.create_test`: unknown method `PSOT`, expected GET, POST, PUT, PATCH or DELETE",
            "request `transfers.get` is a GET, which sends no body, but the step has inputs: define it with POST",
        ]
    );
    // Without its response, the variable is missing.
    assert_eq!(
        verdict(&report.verdicts, "variable").reason,
        "bag.steps.verify.output.status: no such variable"
    );
}

/// A path is read from the bag's root, as Lamdis's engine roots it: `lastAssistant` and
/// `lastUser` are there as well as under `last`.
#[tokio::test]
async fn the_last_messages_are_at_the_bag_s_root() {
    let text = r#"{"steps": [
        {"type": "message", "role": "user", "content": "How many hotels?"},
        {"type": "assistant_check", "mode": "variable_check", "variablePath": "lastAssistant", "operator": "regex", "rightValue": "^\\d+ hotels$"},
        {"type": "assistant_check", "mode": "variable_check", "variablePath": "lastUser", "operator": "eq", "rightValue": "How many hotels?"},
        {"type": "assistant_check", "mode": "variable_check", "variablePath": "last.user", "operator": "neq", "rightValue": "How many hotels?"}
    ]}"#;
    let scenario = agent_test_runtime::load::cases_from_text(
        text,
        "root.json",
        Some(agent_test_runtime::formats::SeedFormat::Lamdis),
    )
    .expect("loads")
    .remove(0)
    .scenario;
    let agent = agent_fn(|_req: AgentRequest| async move { "12 hotels" });
    let report = scenario.run(Suite::new().agent(agent)).await;
    let got: Vec<(Status, &str)> = report
        .verdicts
        .iter()
        .map(|v| (v.status, v.reason.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Status::Pass, ""),
            (Status::Pass, ""),
            (
                Status::Fail,
                r#"last.user: expected a value that does not equal "How many hotels?", got "How many hotels?""#
            )
        ],
        "{report}"
    );
}
