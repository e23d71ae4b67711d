//! Every object of the native JSON forms (scenarios, recordings) is closed: an unknown field is
//! an error naming where it is. The test builds one fully populated instance of every type of
//! the forms, serialises it, and for every object in that JSON inserts an unknown key: loading
//! must fail naming it. The exhaustive matches below make a new check, matcher or step fail to
//! compile here until it is added to the instance, so a type added later without
//! `deny_unknown_fields` fails this test.

use serde_json::{Value, json};

use agent_test_core::check::{Check, CheckExt, Expectation, IntoExpectation, no_tools, reply};
use agent_test_core::model::ToolErrorKind;
use agent_test_core::model::{Call, Guardrail, Message, Reply, Transcript, Turn, Usage};
use agent_test_core::model::{RecordedRun, ScenarioInfo};
use agent_test_core::scenario::{Scenario, Step};

/// One check of every kind with every option set: each kind's samples (its file says them,
/// so a new kind cannot be left out), except the custom check, which has no data form.
fn every_check() -> Vec<Expectation> {
    Check::samples()
        .into_iter()
        .filter(|e| !matches!(e.check, Check::Custom(_)))
        .collect()
}

/// A scenario with every step kind and every check, every optional field set.
fn every_step() -> Scenario {
    let mut s = Scenario::new("all")
        .described("every type")
        .context("K", json!({"nested": 1}))
        .history([Message::user("before")]);
    s.interpolate = true;
    s = s.repeat(40).min_passes(30).min_pass_rate((0.7, 0.9));
    s.steps = vec![
        Step::System { text: "sys".into() },
        Step::User {
            text: "hi".into(),
            body: Some(json!({"custom": {"x": 1}})),
            expect: every_check(),
        },
        Step::Extract {
            name: "v".into(),
            description: "the id".into(),
            transcript: true,
            id: Some("e".into()),
        },
        Step::Simulate {
            objective: "o".into(),
            min_turns: 1,
            max_turns: 2,
            continue_after_pass: true,
            expect: vec![no_tools().into_expectation()],
        },
        Step::Request {
            request: "r".into(),
            input: json!({"a": {"b": 1}}),
            save_as: Some("v".into()),
            id: Some("req".into()),
        },
        Step::Expect {
            expect: vec![reply().contains("x").so_far()],
        },
        Step::CheckVariable {
            path: "var.v".into(),
            op: agent_test_core::scenario::VariableOp::GreaterThan,
            equals: json!({"x": 1}),
            label: Some("l".into()),
            warning: true,
        },
    ];
    for step in &s.steps {
        // A new step must be added above.
        match step {
            Step::System { .. }
            | Step::User { .. }
            | Step::Extract { .. }
            | Step::Simulate { .. }
            | Step::Request { .. }
            | Step::Expect { .. }
            | Step::CheckVariable { .. } => {}
        }
    }
    s.expect = every_check();
    s
}

/// A recording with every optional field set.
fn full_recording() -> RecordedRun {
    let call = Call::node("Agent")
        .with_id("n1")
        .with_arguments(json!({"q": {"deep": 1}}))
        .result(json!({"r": {"deep": 2}}))
        .child(
            Call::tool("t", json!({"a": 1}))
                .with_id("c1")
                .in_step(2)
                .took_ms(7)
                .failed_with(ToolErrorKind::Validation, json!({"e": 1})),
        );
    let reply = Reply::text("ok")
        .call(call)
        .body(json!({"b": {"c": 1}}))
        .usage(Usage::new(1, 2))
        .http_status(200)
        .chat_model("m")
        .workflow(
            agent_test_core::model::Workflow::in_state("s")
                .transitions(["a"])
                .completed(),
        )
        .guardrail(Guardrail::triggered("g").message("m"))
        .latency_ms(3);
    let mut reply = reply;
    reply.notes = vec!["a note".into()];
    let mut turn = Turn::new(0, "hi", reply, 3);
    turn.before = vec![Message::system("s")];
    turn.error = Some("boom".into());
    turn.cost = Some(agent_test_core::model::prices::Cost::Unknown("why".into()));
    let mut transcript = Transcript::new(vec![turn]);
    transcript.context.insert("K", json!({"v": 1}));
    transcript.history = vec![Message::user("before")];
    transcript.variables = vec![agent_test_core::model::Variable::new(
        "var.v",
        json!({"deep": 1}),
    )];
    transcript.user_time = Some("2026-11-23T09:30:00+00:00[UTC]".parse().unwrap());
    let mut info = ScenarioInfo::new("all")
        .described("d")
        .located("m", "f.rs", 3)
        .repeated(1);
    info.repeat = 1;
    RecordedRun {
        scenario: info,
        transcript,
    }
}

/// Keys whose values are the user's data (any JSON), not the form's objects.
const DATA_KEYS: &[&str] = &[
    "context",
    "body",
    "input",
    "equals",
    "value",
    "schema",
    "arguments",
    "result",
    "error",
];

/// Every object of `v` outside the data keys, by JSON pointer and readable path.
fn objects(v: &Value, pointer: String, path: String, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(o) => {
            out.push((pointer.clone(), path.clone()));
            for (k, child) in o {
                if DATA_KEYS.contains(&k.as_str()) {
                    continue;
                }
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                objects(child, format!("{pointer}/{k}"), p, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                objects(child, format!("{pointer}/{i}"), format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// Inserts `zz_unknown` into every object of `form` and loads it with `load`: each must fail
/// naming the place. Returns the failures, all at once.
fn unknown_everywhere(
    form: &Value,
    load: impl Fn(Value) -> Result<(), agent_test_core::util::input::LoadError>,
) -> Vec<String> {
    let mut places = Vec::new();
    objects(form, String::new(), String::new(), &mut places);
    assert!(places.len() > 10, "{places:?}");
    let mut failures = Vec::new();
    for (pointer, path) in places {
        let mut v = form.clone();
        let Some(Value::Object(o)) = v.pointer_mut(&pointer) else {
            unreachable!("{pointer}")
        };
        o.insert("zz_unknown".into(), json!(1));
        let expected = if path.is_empty() {
            "zz_unknown".to_owned()
        } else {
            format!("{path}.zz_unknown")
        };
        match load(v) {
            Ok(()) => failures.push(format!("{expected}: accepted")),
            Err(e) if e.path == expected && e.message.starts_with("unknown field `zz_unknown`") => {
            }
            Err(e) => failures.push(format!("{expected}: {e}")),
        }
    }
    failures
}

#[test]
fn every_object_of_the_scenario_form_is_closed() {
    let form = serde_json::to_value(every_step()).unwrap();
    // The instance loads as it is.
    let back: Scenario = crate::load::load_value("s.json", form.clone()).unwrap();
    assert_eq!(serde_json::to_value(back).unwrap(), form);
    let failures = unknown_everywhere(&form, |v| {
        crate::load::load_value::<Scenario>("s.json", v).map(|_| ())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_object_of_the_recording_form_is_closed() {
    let run = full_recording();
    let form = serde_json::to_value(&run).unwrap();
    assert_eq!(
        crate::load::run_from_text(&form.clone().to_string(), "r.json", None).unwrap(),
        run
    );
    let failures = unknown_everywhere(&form, |v| {
        crate::load::run_from_text(&v.to_string(), "r.json", None).map(|_| ())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A JSON report is a recording too: its own fields are known, others are not.
    let mut report = form.clone();
    report["verdicts"] = json!([]);
    report["passed"] = json!(true);
    report["summary"] = json!({});
    report["duration_ms"] = json!(1);
    assert!(crate::load::run_from_text(&report.clone().to_string(), "r.json", None).is_ok());
    report["zz_unknown"] = json!(1);
    let err = crate::load::run_from_text(&report.to_string(), "r.json", None).unwrap_err();
    assert!(
        err.message.starts_with("unknown field `zz_unknown`"),
        "{err}"
    );
}

/// The one list of check types gives each its `type` tag: what `kind()` says is what the
/// JSON form holds, for every check type.
#[test]
fn every_check_kind_is_its_json_type_tag() {
    for e in every_check() {
        let json = serde_json::to_value(&e.check).expect("serialises");
        assert_eq!(json["type"], e.check.kind(), "{json}");
    }
}
