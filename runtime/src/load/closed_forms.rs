//! Every object of the native JSON forms (scenarios, recordings) is closed: an unknown field is
//! an error naming where it is. The test builds one fully populated instance of every type of
//! the forms, serialises it, and for every object in that JSON inserts an unknown key: loading
//! must fail naming it. The exhaustive matches below make a new check, matcher or step fail to
//! compile here until it is added to the instance, so a type added later without
//! `deny_unknown_fields` fails this test.

use serde_json::{Value, json};

use crate::check::{
    ArgsMode, Check, CheckExt, Expectation, IntoExpectation, JsonSource, JsonSourceOptions,
    agent_invoked, agent_not_invoked, agent_response, any_call, any_guardrail_triggered, any_tool,
    cost, expected_response, field, forbidden_tools, guardrail_not_triggered, guardrail_triggered,
    http_status, jmespath, json_path, judge, latency, no_tool_errors, no_tools, node, node_output,
    replies, reply, required_tools, schema, state_is, tokens, tool, tool_call, tool_chain,
    tool_sequence, trajectory, transitioned_to, valid_structured_output, valid_tool_list,
    workflow_complete,
};
use crate::matcher::{
    Matcher, all_of, any, any_of, contains, date, date_time, email, exact, expr, free_text,
    matches_schema, missing, not, one_of, optional, regex,
};
use crate::model::ToolErrorKind;
use crate::model::{Call, Guardrail, Message, Reply, Transcript, Turn, Usage};
use crate::model::{RecordedRun, ScenarioInfo};
use crate::scenario::{Scenario, Step};

/// One of every matcher, each with every option set.
fn every_matcher() -> Vec<Matcher> {
    let all = vec![
        exact(json!({"k": [1, "*"]}))
            .unordered()
            .wildcards()
            .into_matcher(),
        expr("CONCAT('a', 'b')"),
        contains("x").ignore_case().into_matcher(),
        regex("^x"),
        date("TODAY()").tolerance_minutes(5).into_matcher(),
        matches_schema(json!({"type": "string"})),
        any(),
        optional(exact(1)),
        missing(),
        email("a@example.com"),
        all_of([any()]),
        any_of([any()]),
        not(any()),
        free_text("a greeting"),
        date_time("tomorrow at noon"),
        one_of([exact(2).into_matcher()]),
    ];
    for m in &all {
        // A new matcher must be added above.
        match m {
            Matcher::Exact { .. }
            | Matcher::Expr { .. }
            | Matcher::Contains { .. }
            | Matcher::Regex { .. }
            | Matcher::Date { .. }
            | Matcher::Schema { .. }
            | Matcher::Any
            | Matcher::Optional { .. }
            | Matcher::Missing
            | Matcher::Email { .. }
            | Matcher::AllOf { .. }
            | Matcher::AnyOf { .. }
            | Matcher::Not { .. }
            | Matcher::FreeText { .. }
            | Matcher::DateTime { .. } => {}
            // A closure has no data form (like custom checks): nothing to close.
            Matcher::Predicate(_) => {}
        }
    }
    all
}

use crate::matcher::IntoMatcher;

/// One of every check family, each with every option set.
fn every_check() -> Vec<Expectation> {
    let mut node_check = node("Agent").times(1).tool(tool("inner").arg("q", "x"));
    for m in every_matcher() {
        node_check = node_check.arg("a", m.clone()).result_at("r", m);
    }
    let all = vec![
        reply()
            .contains("hi")
            .case_sensitive()
            .trimmed()
            .id("text")
            .depends_on("tool")
            .warning()
            .label("label"),
        replies().matches("x").so_far(),
        node_output("Agent", "output.text")
            .equals("x")
            .into_expectation(),
        node_check
            .arg_group(["a", "b"], free_text("together"))
            .forbid_arg("f")
            .strict()
            .every_call()
            .at_position(0)
            .succeeded()
            .id("tool"),
        any_call("x").between(1, 2).into_expectation(),
        any_tool()
            .arguments(json!({"k": 1}))
            .arg_json_path("$.a[*]", "x")
            .result_json_path("$.r", any())
            .no_error()
            .failed_with(ToolErrorKind::Validation)
            .into_expectation(),
        tool("t").succeeded_or_invalid().into_expectation(),
        reply()
            .length()
            .between(1, 5)
            .in_bytes()
            .trimmed()
            .into_expectation(),
        no_tool_errors()
            .of_tools(["a"])
            .of_kind(ToolErrorKind::Execution)
            .into_expectation(),
        tool_chain([tool("a").result(any()), tool("b").arg("x", 1).no_error()]).into_expectation(),
        jmespath("a.b").is(1).in_text().into_expectation(),
        field("x")
            .exists()
            .with_source(JsonSource::Lenient {
                fenced: true,
                embedded: true,
            })
            .into_expectation(),
        required_tools(["a"]).succeeded().into_expectation(),
        forbidden_tools(["b"]).into_expectation(),
        no_tools().succeeded().into_expectation(),
        tool_sequence(["a", "b"]).succeeded().into_expectation(),
        trajectory([tool_call("a").arg("x", 1), tool_call("b").parallel()])
            .strict()
            .args_mode(ArgsMode::Exact)
            .args_mode_for("a", ArgsMode::Subset)
            .compare_fields("b", ["x.y"])
            .succeeded()
            .into_expectation(),
        field("a.b").is(optional(exact(1))).into_expectation(),
        json_path("$.a").equals(json!({"k": 1})).into_expectation(),
        json_path("$.b").not_exists().into_expectation(),
        schema(json!({"type": "object"})).at("a").into_expectation(),
        valid_tool_list().into_expectation(),
        valid_structured_output().into_expectation(),
        http_status(200).into_expectation(),
        latency()
            .at_most(std::time::Duration::from_secs(1))
            .total()
            .into_expectation(),
        tokens()
            .total_at_most(1)
            .input_at_most(2)
            .output_at_most(3)
            .into_expectation(),
        cost().at_most_usd(0.5).into_expectation(),
        agent_invoked(["a"]).min_calls(2).into_expectation(),
        agent_not_invoked(["b"]).into_expectation(),
        agent_response("a").contains("x").into_expectation(),
        state_is("s").into_expectation(),
        transitioned_to("t").into_expectation(),
        workflow_complete().into_expectation(),
        guardrail_triggered("g").into_expectation(),
        guardrail_not_triggered("g").into_expectation(),
        any_guardrail_triggered().into_expectation(),
        judge("polite")
            .threshold(0.5)
            .hallucination()
            .must_not(["rude"])
            .on_node("Agent", "output.text")
            .with_tool_sequence()
            .with_tool_results()
            .with_tool_inputs()
            .graded_as("g")
            .without_prompt()
            .into_expectation(),
        judge("on the transcript")
            .on_transcript()
            .expected_response("x")
            .into_expectation(),
        expected_response("Paris").into_expectation(),
        reply().snapshot().into_expectation(),
        tool("t").snapshot().into_expectation(),
        any_tool()
            .snapshot()
            .stored(crate::check::Stored::Accepted {
                file: "snapshots/s__x__1.snap".into(),
                content: "[]".into(),
            })
            .into_expectation(),
    ];
    for e in &all {
        // A new check family must be added above.
        match &e.check {
            Check::Text(_)
            | Check::Length(_)
            | Check::Tool(_)
            | Check::ToolSet(_)
            | Check::NoTools(_)
            | Check::ToolSequence(_)
            | Check::ToolChain(_)
            | Check::NoToolErrors(_)
            | Check::Trajectory(_)
            | Check::Field(_)
            | Check::JsonPath(_)
            | Check::Jmespath(_)
            | Check::Schema(_)
            | Check::ToolList(_)
            | Check::StructuredOutput(_)
            | Check::HttpStatus(_)
            | Check::Latency(_)
            | Check::Tokens(_)
            | Check::Cost(_)
            | Check::Agents(_)
            | Check::AgentResponse(_)
            | Check::Workflow(_)
            | Check::Guardrail(_)
            | Check::Judge(_)
            | Check::Snapshot(_)
            | Check::Custom(_) => {}
        }
    }
    all
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
            op: crate::scenario::VariableOp::GreaterThan,
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
            crate::model::Workflow::in_state("s")
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
    turn.cost = Some(crate::model::prices::Cost::Unknown("why".into()));
    let mut transcript = Transcript::new(vec![turn]);
    transcript.context.insert("K", json!({"v": 1}));
    transcript.history = vec![Message::user("before")];
    transcript.variables = vec![crate::model::Variable::new("var.v", json!({"deep": 1}))];
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
    load: impl Fn(Value) -> Result<(), crate::util::input::LoadError>,
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
