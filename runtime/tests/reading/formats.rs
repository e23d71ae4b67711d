//! Seed formats loaded into the native model, evaluated on their own recorded outputs, with
//! the format's semantics; malformed files name the file, the place and what was expected.

use agent_test_runtime::check::Status;
use agent_test_runtime::scenario::RunScenario;
use serde_json::json;

/// A MorganaBench example whose outputs satisfy (or not) its assertions.
fn example(create_event_params: serde_json::Value) -> String {
    json!({
        "inputs": {
            "messages": [
                {"role": "user", "content": "Who is the King of England?"},
                {"role": "assistant", "content": "King Charles III."},
                {"role": "user", "content": "Email his office: call tomorrow at 3pm, 30 minutes"}
            ],
            "tools": ["search_contacts", "create_event"],
            "metadata": {"categories": {"domain": "calendar"}}
        },
        "expectations": {
            "assertions": [
                {"assert_that": "tool_called", "tool": "create_event", "parameters": [
                    {"param": "email", "matcher": {"match_as": "email", "value": "office@royal.uk"}},
                    {"param": "duration", "matcher": {"match_as": "equality", "value": 30}},
                    {"param": "priority", "matcher": {"match_as": "optional", "default": {"match_as": "equality", "value": "normal"}}},
                    {"param": "attendees", "matcher": {"match_as": "missing"}}
                ]}
            ],
            "notes": "written by hand"
        },
        "outputs": {
            "response": "Done: the call is booked.",
            "environment": {"user_time": "2026-11-23T09:30:00Z"},
            "trace": [
                {"event": "tool_call", "id": "t1", "tool": "create_event", "params": create_event_params},
                {"event": "tool_result", "id": "t1", "result": {"ok": true}}
            ]
        }
    })
    .to_string()
}

#[test]
fn a_morganabench_example_becomes_a_scenario_and_its_recording() {
    let good = example(json!({"email": "office@ROYAL.uk", "duration": 30.0}));
    let case = agent_test_runtime::load::cases_from_text(
        &good,
        "calendar.json",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .expect("loads")
    .remove(0);
    let s = &case.scenario;
    assert_eq!(s.name, "calendar");
    assert_eq!(s.history.len(), 2, "earlier messages are history");
    assert_eq!(
        s.context.get("tools"),
        Some(&json!(["search_contacts", "create_event"]))
    );
    assert_eq!(
        s.context.get("extra"),
        Some(&json!({"expectations.notes": "written by hand"})),
        "open objects' extra fields are kept, not dropped"
    );
    let recording = case.recording.expect("outputs are a recording");
    assert_eq!(
        recording.transcript.turns[0].input,
        "Email his office: call tomorrow at 3pm, 30 minutes"
    );
    let report = s.evaluate(&recording.transcript);
    // Email domains compare in any case; `30` equals `30.0`; an absent optional passes.
    assert!(report.passed(), "{report}");
}

#[test]
fn equality_is_json_equality_and_missing_means_absent() {
    let bad = example(json!({"email": "office@royal.uk", "duration": "30", "attendees": ["x"]}));
    let case = agent_test_runtime::load::cases_from_text(
        &bad,
        "calendar.json",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .unwrap()
    .remove(0);
    let report = case.scenario.evaluate(&case.recording.unwrap().transcript);
    assert!(!report.passed());
    let v = &report.verdicts[0];
    assert_eq!(v.status, Status::Fail);
    let problems: Vec<&str> = v
        .details
        .violations
        .iter()
        .map(|x| x.message.as_str())
        .collect();
    let problems = problems.join("\n");
    assert!(
        problems.contains("duration: expected 30, got \"30\""),
        "{problems}"
    );
    assert!(
        problems.contains("attendees: expected it to be absent"),
        "{problems}"
    );
}

#[test]
fn no_tool_called_expected_responses_and_groups_map_to_native_checks() {
    let text = json!({
        "inputs": {"messages": [{"role": "user", "content": "Thanks!"}]},
        "expectations": {
            "expected_response": "You're welcome.",
            "assertions": [
                {"assert_that": "no_tool_called"},
                {"assert_that": "tool_called", "tool": "book", "parameters": [
                    {"params": ["start", "end"], "matcher": {"match_as": "date_time", "value": "next weekend"}}
                ]}
            ]
        },
        "outputs": {"response": "You're welcome.", "trace": [
            {"event": "tool_call", "id": "1", "tool": "book", "params": {"start": "2026-11-28", "end": "2026-11-29"}}
        ]}
    })
    .to_string();
    let case = agent_test_runtime::load::cases_from_text(
        &text,
        "thanks.json",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .unwrap()
    .remove(0);
    let kinds: Vec<&str> = case
        .scenario
        .expect
        .iter()
        .map(|e| e.check.kind())
        .collect();
    assert_eq!(kinds, ["judge", "no_tools", "tool"]);
    let report = case.scenario.evaluate(&case.recording.unwrap().transcript);
    let statuses: Vec<Status> = report.verdicts.iter().map(|v| v.status).collect();
    // Judged parts need a judge (an error without one, never a pass); the tool call fails
    // `no_tool_called`.
    assert_eq!(statuses, [Status::Error, Status::Fail, Status::Error]);
}

#[test]
fn jsonl_files_and_malformed_examples_name_the_line_and_field() {
    let ok = example(json!({"email": "office@royal.uk", "duration": 30}));
    let text = format!("{ok}\n\n{ok}\n");
    let cases = agent_test_runtime::load::cases_from_text(
        &text,
        "suite.jsonl",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.scenario.name.as_str()).collect();
    assert_eq!(names, ["suite-1", "suite-3"]);

    let bad_matcher = ok.replace("\"match_as\":\"email\"", "\"match_as\":\"regex\"");
    let err = agent_test_runtime::load::cases_from_text(
        &format!("{ok}\n{bad_matcher}\n"),
        "suite.jsonl",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .unwrap_err();
    assert_eq!(
        err.path,
        "line 2: expectations.assertions[0].parameters[0].matcher.match_as"
    );
    assert!(
        err.message.starts_with("unknown matcher `regex`"),
        "{}",
        err.message
    );

    let unknown = ok.replace(
        "\"assert_that\":\"tool_called\"",
        "\"assert_that\":\"tool_called\",\"strict\":true",
    );
    let err = agent_test_runtime::load::cases_from_text(
        &unknown,
        "one.json",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .unwrap_err();
    assert_eq!(err.path, "expectations.assertions[0].strict");
    assert!(
        err.message.contains("unknown field `strict`"),
        "{}",
        err.message
    );

    let not_user = json!({"inputs": {"messages": [{"role": "assistant", "content": "hi"}]}, "expectations": {}}).to_string();
    let err = agent_test_runtime::load::cases_from_text(
        &not_user,
        "x.json",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.json: at inputs.messages[0].role: the last message is the user's request: expected role `user`, got `assistant`"
    );
    let err = agent_test_runtime::load::cases_from_text(
        "{\"inputs\": 3",
        "y.jsonl",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .unwrap_err();
    assert_eq!(err.path, "line 1");
}

/// A format named explicitly is honoured, or refused when the file cannot be of it; a broken
/// pretty-printed JSON example is reported where it breaks, not as a broken JSONL line.
#[test]
fn named_formats_and_broken_documents() {
    use agent_test_runtime::formats::SeedFormat;
    let err =
        agent_test_runtime::load::cases_from_text("{}", "suite.jsonl", Some(SeedFormat::Mibo))
            .unwrap_err();
    assert_eq!(
        err.to_string(),
        "suite.jsonl: a .jsonl file holds MorganaBench examples, not mibo ones"
    );
    let err = agent_test_runtime::load::cases_from_text(
        "a: 1",
        "suite.yaml",
        Some(SeedFormat::MorganaBench),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "suite.yaml: MorganaBench examples are JSON or JSONL, not YAML"
    );
    let broken = "{\n  \"inputs\": {\"messages\": []},\n  \"expectations\": {},\n}\n";
    let err = agent_test_runtime::load::cases_from_text(
        broken,
        "one.json",
        Some(agent_test_runtime::formats::SeedFormat::MorganaBench),
    )
    .unwrap_err();
    assert!(err.path.starts_with("line 4"), "{err}");
    assert!(
        err.message.starts_with("not valid JSON: trailing comma"),
        "{err}"
    );
}

/// Lamdis checks see the conversation as it stands at their place, a simulated user's turns
/// included; a check before any message is refused.
#[test]
fn lamdis_checks_are_placed_where_they_stand() {
    use agent_test_runtime::scenario::Step;
    let text = r#"{"steps": [
      {"type": "message", "content": "Book a table"},
      {"type": "user_objective", "description": "Get the booking confirmed", "maxTurns": 3},
      {"type": "assistant_check", "mode": "includes", "scope": "last", "includes": ["booked"]}
    ]}"#;
    let case = agent_test_runtime::load::cases_from_text(
        text,
        "t.json",
        Some(agent_test_runtime::formats::SeedFormat::Lamdis),
    )
    .unwrap()
    .remove(0);
    assert!(matches!(&case.scenario.steps[2], Step::Expect { expect } if expect.len() == 1));
    // Passively, a check after a simulated user cannot be placed: reported, not dropped.
    let t = agent_test_runtime::model::Transcript::new(vec![]);
    let report = case.scenario.evaluate(&t);
    let v = report
        .verdicts
        .iter()
        .find(|v| v.label.contains("booked"))
        .unwrap();
    assert_eq!(v.status, Status::Error);
    assert_eq!(
        v.reason,
        "not evaluated: it follows a simulated user, whose turns a recording cannot place"
    );

    let err = agent_test_runtime::load::cases_from_text(
        r#"{"steps": [{"type": "assistant_check", "mode": "includes", "includes": ["hi"]}]}"#,
        "t.json",
        Some(agent_test_runtime::formats::SeedFormat::Lamdis),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.json: at steps[0]: an assistant_check before any message has no reply to check"
    );
    let err = agent_test_runtime::load::cases_from_text(
        r#"{"steps": [{"type": "user_objective", "description": "d", "maxTurns": 500}]}"#,
        "t.json",
        Some(agent_test_runtime::formats::SeedFormat::Lamdis),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.json: at steps[0].maxTurns: at most 50 turns (each is a model call), got 500"
    );
}

/// PromptKit documents that contradict themselves are refused rather than half-read.
#[test]
fn promptkit_contradictions_are_errors() {
    let err = agent_test_runtime::load::cases_from_text("kind: Scenario\nspec:\n  turns: [{role: user, content: a}]\n  steps: [{type: input, content: b}]\n", "p.yaml", Some(agent_test_runtime::formats::SeedFormat::PromptKit))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "p.yaml: at spec.steps: a scenario has `turns` or workflow `steps`, not both"
    );
    let err = agent_test_runtime::load::cases_from_text("kind: Scenario\nspec:\n  turns:\n    - role: user\n      content: a\n      assertions:\n        - type: guardrail_triggered\n          params: {expected: true, assertions: false}\n", "p.yaml", Some(agent_test_runtime::formats::SeedFormat::PromptKit))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "p.yaml: at spec.turns[0].assertions[0].params.assertions: `expected` and `assertions` say opposite things: give one"
    );
}
