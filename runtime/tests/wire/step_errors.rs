//! The failure paths of run steps, each with its message: extraction without a model or a
//! reply, a failing simulated user, request steps badly defined or failing, what passive
//! evaluation cannot do, and seed-format files that cannot give a case.

use agent_test_runtime::__private::FileCases;
use agent_test_runtime::agent::agent_fn;
use agent_test_runtime::check::{Severity, Status};
use agent_test_runtime::load::LoadErrorKind;
use agent_test_runtime::model::Reply;
use agent_test_runtime::model::{Transcript, Turn, Variable};
use agent_test_runtime::prelude::*;
use agent_test_runtime::report::Report;
use agent_test_runtime::scenario::{Scenario, Step, VariableOp};
use agent_test_runtime::{ScenarioRun, Suite};
use agent_test_runtime::{Verdict, simulated_user};
use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use serde_json::Value;

use super::judge::{cache, local};
use super::judge_server::{Behaviour, judge_server};
use super::servers::serve;

/// Whether the environment names a judge, which runs without `judge = ...;` would use.
fn environment_configures_a_judge() -> bool {
    [
        "AGENT_TEST_JUDGE_MODEL",
        "AGENT_TEST_JUDGE_PROVIDER",
        "AGENT_TEST_JUDGE_BASE_URL",
    ]
    .iter()
    .any(|v| std::env::var(v).is_ok_and(|v| !v.trim().is_empty()))
}

/// The only verdict of `report`, which must be an error of kind `check` labelled `label`.
fn only_error<'a>(report: &'a Report, check: &str, label: &str) -> &'a Verdict {
    assert_eq!(report.verdicts.len(), 1, "{report}");
    let v = &report.verdicts[0];
    assert_eq!((v.check.as_ref(), v.label.as_str()), (check, label));
    assert_eq!(v.status, Status::Error, "{report}");
    assert!(!report.passed());
    v
}

#[tokio::test]
async fn extracting_without_a_model_is_an_error() {
    if environment_configures_a_judge() {
        return; // the environment's judge would extract
    }
    let agent = agent_fn(|_r| async { "Your reference is BK-4100." });
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "no model");
    run.user("Book the Sol Hostel").await;
    let value: String = run.extract("the booking reference").await;
    assert_eq!(value, "");
    let report = run.report().await;
    let v = only_error(&report, "extract", "extract \"the booking reference\"");
    assert_eq!(
        v.reason,
        "no model to extract with: set `judge = ...;` (its model extracts) or \
         AGENT_TEST_JUDGE_MODEL"
    );
    assert!(report.judge.is_none());
}

#[tokio::test]
async fn extracting_before_any_turn_is_an_error_and_asks_nothing() {
    let (url, server) = judge_server(vec![]).await;
    let suite = Suite::new().judge(local(&url, cache("step-extract-no-turn")));
    let mut run = ScenarioRun::new(suite, "too early");
    let value: u32 = run.extract("the order number").await;
    assert_eq!(value, 0);
    let report = run.report().await;
    let v = only_error(&report, "extract", "extract \"the order number\"");
    assert_eq!(
        v.reason,
        "no turn ran yet, so there is no reply to extract from"
    );
    assert!(server.requests().is_empty());
}

const OBJECTIVE_LABEL: &str = "simulated user reached the objective \"get a refund\"";

#[tokio::test]
async fn a_simulated_user_whose_model_fails_is_an_error_and_no_turn_runs() {
    let (url, server) = judge_server(vec![Behaviour::Status(401)]).await;
    let agent = agent_fn(|_r| async { "How can I help?" });
    let suite = Suite::new()
        .agent(agent)
        .judge(local(&url, cache("step-simulate-401")));
    let mut run = ScenarioRun::new(suite, "unauthorised");
    run.simulate(simulated_user("get a refund"), |run| {
        run.expect_turn(reply().contains("help"));
    })
    .await;
    let report = run.report().await;
    let v = only_error(&report, "simulate", OBJECTIVE_LABEL);
    assert_eq!(
        v.reason,
        format!(
            "the simulated user failed: the judge endpoint {url}/chat/completions answered HTTP \
             401: {{\"error\":{{\"message\":\"scripted failure\"}}}} (after 1 request)"
        )
    );
    assert_eq!(server.requests().len(), 1, "a 401 is not retried");
    assert!(report.transcript.turns.is_empty());
    assert!(!report.to_string().contains("sk-judge-secret"));
}

#[tokio::test]
async fn a_simulated_user_that_writes_nothing_is_an_error() {
    let answer = r#"{"objective_met": false, "message": ""}"#;
    let (url, _server) = judge_server(vec![Behaviour::Say(answer)]).await;
    let agent = agent_fn(|_r| async { "How can I help?" });
    let suite = Suite::new()
        .agent(agent)
        .judge(local(&url, cache("step-simulate-silent")));
    let mut run = ScenarioRun::new(suite, "silent");
    run.simulate(simulated_user("get a refund"), |_| {}).await;
    let report = run.report().await;
    let v = only_error(&report, "simulate", OBJECTIVE_LABEL);
    let shown = serde_json::from_str::<Value>(answer).expect("JSON");
    assert_eq!(
        v.reason,
        format!("the simulated user wrote no message: {shown}")
    );
    assert!(v.reason.contains("\"message\":\"\""), "{}", v.reason);
    assert!(report.transcript.turns.is_empty());
}

/// A data scenario of one request step, `x`, with `requests` as the definitions.
async fn request_x(requests: Value) -> Report {
    let scenario = Scenario {
        steps: vec![Step::Request {
            request: "x".into(),
            input: json!({"k": 1}),
            save_as: Some("out".into()),
            id: None,
        }],
        ..Scenario::new("request x")
    };
    scenario
        .run(Suite::new().context("requests", requests))
        .await
}

/// The reason of the request step's error verdict.
fn request_error(report: &Report) -> &str {
    &only_error(report, "request", "request `x`").reason
}

#[tokio::test]
async fn badly_defined_requests_are_errors_naming_the_request() {
    let cases = [
        (json!({"x": {"method": "POST"}}), "request `x` has no `url`"),
        (
            json!({"x": 42}),
            "request `x` is defined as 42, expected a URL or {\"method\", \"url\"}",
        ),
        (
            json!({"x": {"url": "http://127.0.0.1:9/x", "headers": {"k": 1}}}),
            "request `x`: header `k` must be text, got 1",
        ),
        (
            json!({"x": {"url": "http://127.0.0.1:9/x", "headers": ["k: v"]}}),
            "request `x`: `headers` must be an object, got [\"k: v\"]",
        ),
    ];
    for (requests, expected) in cases {
        let report = request_x(requests.clone()).await;
        assert_eq!(request_error(&report), expected, "for {requests}");
    }
}

#[tokio::test]
async fn a_request_answered_with_an_error_status_is_an_error_with_the_body() {
    let router = Router::new().route(
        "/x",
        post(|| async { (StatusCode::INTERNAL_SERVER_ERROR, "database unavailable") }),
    );
    let url = format!("{}/x", serve(router).await);
    let report = request_x(json!({"x": url})).await;
    assert_eq!(
        request_error(&report),
        "request `x` answered HTTP 500: database unavailable"
    );
}

#[tokio::test]
async fn a_request_to_a_closed_port_is_an_error_naming_the_url() {
    // A port that was free a moment ago: nothing listens on it.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let url = format!("http://127.0.0.1:{port}/x");
    let report = request_x(json!({"x": {"method": "POST", "url": url}})).await;
    let reason = request_error(&report);
    let prefix = format!("cannot connect to {url}: ");
    assert!(reason.starts_with(&prefix), "{reason}");
    assert!(reason.len() > prefix.len(), "the cause is given: {reason}");
}

fn recorded() -> Transcript {
    Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 30)])
}

/// A variable check is evaluated on a recording with the variables it kept: the bag as it
/// stood at the check's place. Without them (a trace, a recording from elsewhere) the values
/// set before the check are "not measured", an error; a variable no step set fails as live.
#[test]
fn a_variable_check_on_a_recording_reads_the_recorded_variables() {
    let scenario = Scenario {
        steps: vec![
            Step::User {
                text: "hi".into(),
                body: None,
                expect: Vec::new(),
            },
            Step::CheckVariable {
                path: "var.status".into(),
                op: VariableOp::Equals,
                equals: json!("done"),
                label: None,
                warning: false,
            },
            Step::Request {
                request: "orders.get".into(),
                input: Value::Null,
                save_as: Some("order".into()),
                id: None,
            },
            Step::CheckVariable {
                path: "var.order.total".into(),
                op: VariableOp::GreaterThan,
                equals: json!(3),
                label: Some("the total".into()),
                warning: true,
            },
        ],
        ..Scenario::new("variables")
    };
    let got = |report: &Report| -> Vec<(String, Status, Severity, String)> {
        report
            .verdicts
            .iter()
            .map(|v| (v.label.clone(), v.status, v.severity, v.reason.clone()))
            .collect()
    };
    // No variables kept: the one set before the second check is not measured.
    let report = scenario.evaluator().evaluate(recorded());
    assert_eq!(
        got(&report),
        [
            (
                "var.status equals \"done\"".to_owned(),
                Status::Fail,
                Severity::Error,
                "var.status: no such variable".to_owned()
            ),
            (
                "the total".to_owned(),
                Status::Error,
                Severity::Warning,
                "not measured: the recording keeps no variables (a run recorded by `agent-test \
                 run`, or a test's JSON report, keeps them)"
                    .to_owned()
            ),
        ]
    );
    assert!(!report.passed());
    // A recording that kept them.
    let mut kept = recorded();
    kept.variables = vec![Variable::new("var.order", json!({"total": 2}))];
    let report = scenario.evaluator().evaluate(kept);
    assert_eq!(
        got(&report)[1],
        (
            "the total".to_owned(),
            Status::Fail,
            Severity::Warning,
            "var.order.total: expected a value that is greater than 3, got 2".to_owned()
        )
    );
}

#[test]
fn a_judge_check_evaluated_without_a_judge_is_not_graded() {
    let scenario = Scenario::new("greeting")
        .user("hi")
        .expect_turn(judge("is friendly"))
        .expect(reply().contains("hello"));
    let report = scenario.evaluator().evaluate(recorded());
    assert_eq!(report.verdicts.len(), 2, "{report}");
    assert_eq!(report.verdicts[0].check, "judge");
    assert_eq!(
        (
            report.verdicts[0].status,
            report.verdicts[0].reason.as_str()
        ),
        (
            Status::Error,
            "not graded: judge checks are graded when a scenario runs (ScenarioRun::report) or \
             with ScenarioEvaluator::evaluate_judged; this evaluation had no judge"
        )
    );
    assert_eq!(
        report.verdicts[1].status,
        Status::Pass,
        "the other check still ran"
    );
    assert!(report.judge.is_none());
}

static ONE_CASE: FileCases = FileCases::new(
    r#"{"scenario": "ping", "input_utterance": "ping"}"#,
    "cases/ping.json",
);

static BROKEN: FileCases = FileCases::new(r#"{"scenario": "ping", "#, "cases/broken.json");

#[test]
fn a_case_past_the_end_of_a_file_is_an_error() {
    assert_eq!(ONE_CASE.get(0).expect("case 1").scenario.name, "ping");
    let err = ONE_CASE.get(1).expect_err("no case 2");
    assert_eq!(err.kind, LoadErrorKind::NotFound);
    assert_eq!(err.file, std::path::Path::new("cases/ping.json"));
    assert_eq!(err.to_string(), "cases/ping.json: has 1 case, no case 2");
}

#[test]
fn a_malformed_file_gives_its_load_error_for_every_case() {
    let text = r#"{"scenario": "ping", "#;
    let e = serde_json::from_str::<Value>(text).expect_err("not JSON");
    let expected =
        "cases/broken.json: at line 1, column 21: not valid JSON: EOF while parsing a value";
    assert_eq!(
        e.to_string(),
        "EOF while parsing a value at line 1 column 21"
    );
    assert_eq!(
        agent_test_runtime::load::cases_from_text(text, "cases/broken.json", None)
            .expect_err("a load error")
            .to_string(),
        expected
    );
    let err = BROKEN.get(0).expect_err("not JSON");
    assert_eq!(err.kind, LoadErrorKind::Syntax);
    assert_eq!(err.to_string(), expected);
    assert_eq!(
        BROKEN.get(3).expect_err("not JSON"),
        err,
        "read once, same error"
    );
}
