//! MorganaBench `mb` (seed 004, semantics.md §6): the seed is an API reference. Its examples
//! are the `inputs.messages` JSON and the two `parameter_assertion(..)` calls (Python, written
//! here as the JSON they serialise to); each is wrapped into the smallest complete `Example`.
//! Every entity of the reference is then exercised: examples carry their recorded run
//! (`outputs`), evaluated passively; judged parts (`expected_response`, `free_text`,
//! `date_time`) are errors without a judge, never passes, and the other assertions are still
//! evaluated. Then a table of the format's semantics, and malformed files.

use agent_test_runtime::check::Status;
use agent_test_runtime::formats::{ImportedCase, SeedFormat, morganabench};
use agent_test_runtime::model::{Message, Role};
use agent_test_runtime::report::Report;
use agent_test_runtime::scenario::Step;
use serde_json::{Value, json};

use crate::support::*;

fn mb(text: &str) -> ImportedCase {
    case(SeedFormat::MorganaBench, text, "example.json")
}

/// Evaluates a case on its own recording.
fn evaluated(case: &ImportedCase) -> Report {
    let recording = case.recording.as_ref().expect("the example has outputs");
    case.scenario.evaluate(&recording.transcript)
}

/// An example: one user message, these assertions, and a response with these tool calls
/// (`(tool, params)`, ids `c1`, `c2`, ... with a result each).
fn example(assertions: Value, calls: &[(&str, Value)]) -> String {
    let mut trace = Vec::new();
    for (i, (tool, params)) in calls.iter().enumerate() {
        let id = format!("c{}", i + 1);
        trace.push(json!({"event": "tool_call", "id": id, "tool": tool, "params": params}));
        trace.push(json!({"event": "tool_result", "id": id, "result": {"ok": true}}));
    }
    json!({
        "inputs": {"messages": [{"role": "user", "content": "Please do it."}]},
        "expectations": {"assertions": assertions},
        "outputs": {"response": "Done.", "environment": {"user_time": "2026-03-10T08:00:00Z"},
                    "trace": trace}
    })
    .to_string()
}

// ---------------------------------------------------------------------------------------------
// The seed's examples

/// `Inputs.messages`'s example, as written, wrapped into an example (with outputs).
const MESSAGES: &str = r#"{
  "messages": [
    {"role": "user", "content": "Who is the King of England?"},
    {"role": "assistant", "content": "The King of England is King Charles III."},
    {"role": "user", "content": "When was he born?"}
  ]
}"#;

#[test]
fn the_messages_example_earlier_messages_are_history() {
    let text = format!(
        r#"{{"inputs": {MESSAGES}, "expectations": {{}}, "outputs": {{"response": "He was born on 14 November 1948."}}}}"#
    );
    let case = mb(&text);
    assert_eq!(
        case.scenario.history,
        [
            Message::new(Role::User, "Who is the King of England?"),
            Message::new(Role::Assistant, "The King of England is King Charles III."),
        ]
    );
    assert!(
        matches!(&case.scenario.steps[..], [Step::User { text, .. }] if text == "When was he born?"),
        "{:?}",
        case.scenario.steps
    );
    // No expectations: nothing graded (an omitted expected_response is not evaluated).
    assert!(case.scenario.expect.is_empty());
    let recording = case.recording.as_ref().unwrap();
    assert_eq!(recording.transcript.history.len(), 2);
    assert_eq!(recording.transcript.turns[0].input, "When was he born?");
    assert_eq!(
        recording.transcript.final_reply(),
        "He was born on 14 November 1948."
    );
    assert_passes(&evaluated(&case));
}

/// `parameter_assertion(param="name", matcher=EqualsMatcher(value="John"))`, as JSON.
const ONE_PARAMETER: &str =
    r#"{"param": "name", "matcher": {"match_as": "equality", "value": "John"}}"#;

/// `parameter_assertion(params=["name", "age"], matcher=FreeTextMatcher(value="John, 20 years old"))`,
/// as JSON.
const PARAMETER_GROUP: &str = r#"{"params": ["name", "age"], "matcher": {"match_as": "free_text", "value": "John, 20 years old"}}"#;

fn tool_called(tool: &str, parameters: &[&str]) -> Value {
    let parameters: Vec<Value> = parameters
        .iter()
        .map(|p| serde_json::from_str(p).unwrap())
        .collect();
    json!({"assert_that": "tool_called", "tool": tool, "parameters": parameters})
}

#[test]
fn one_parameter_equality() {
    let assertions = json!([tool_called("create_contact", &[ONE_PARAMETER])]);
    let case = mb(&example(
        assertions.clone(),
        &[("create_contact", json!({"name": "John", "age": 20}))],
    ));
    let report = evaluated(&case);
    assert_verdicts(&report, &[("create_contact", Pass)]);

    let case = mb(&example(
        assertions,
        &[("create_contact", json!({"name": "john", "age": 20}))],
    ));
    let report = evaluated(&case);
    assert_verdicts(&report, &[("create_contact", Fail)]);
    assert_reason(
        &report,
        "create_contact",
        Fail,
        &[r#"name: expected "John", got "john""#],
    );
}

#[test]
fn a_parameter_group_is_judged_jointly() {
    // The group needs a judge: an error, never a pass. The other assertion is evaluated.
    let assertions = json!([
        tool_called("create_contact", &[PARAMETER_GROUP]),
        tool_called(
            "notify",
            &[r#"{"param": "channel", "matcher": {"match_as": "equality", "value": "email"}}"#]
        ),
    ]);
    let good = example(
        assertions.clone(),
        &[
            ("create_contact", json!({"name": "John", "age": 20})),
            ("notify", json!({"channel": "email"})),
        ],
    );
    let report = evaluated(&mb(&good));
    assert_verdicts(&report, &[("create_contact", Error), ("notify", Pass)]);
    assert_reason(&report, "create_contact", Error, &["not graded"]);

    let bad = example(
        assertions,
        &[
            ("create_contact", json!({"name": "Jane", "age": 31})),
            ("notify", json!({"channel": "sms"})),
        ],
    );
    let report = evaluated(&mb(&bad));
    assert_verdicts(&report, &[("create_contact", Error), ("notify", Fail)]);
    // Not called at all is a certain failure, judge or not.
    let report = evaluated(&mb(&example(
        json!([tool_called("create_contact", &[PARAMETER_GROUP])]),
        &[],
    )));
    assert_verdicts(&report, &[("create_contact", Fail)]);
}

// ---------------------------------------------------------------------------------------------
// The entities of the reference

#[test]
fn a_complete_example_of_every_entity() {
    let text = json!({
        "inputs": {
            "messages": [
                {"role": "system", "content": "You are a scheduling assistant."},
                {"role": "user", "content": "Invite ana@example.com to a sync"},
                {"role": "assistant", "content": "When?"},
                {"role": "user", "content": "Tomorrow at 3pm, no agenda"}
            ],
            "metadata": {
                "turns": [{"categories": {"kind": "factoid"}, "resources": []},
                          {"categories": {"kind": "open-ended"}, "resources": ["calendar"]}],
                "categories": {"persona": "busy manager"}
            },
            "tools": ["create_event", "search_contacts"],
            "locale": "en-GB"
        },
        "expectations": {
            "expected_response": "The sync with Ana is booked for tomorrow at 15:00.",
            "assertions": [
                {"assert_that": "tool_called", "tool": "create_event", "parameters": [
                    {"param": "attendee", "matcher": {"match_as": "email", "value": "ana@example.com"}},
                    {"param": "agenda", "matcher": {"match_as": "missing"}},
                    {"param": "duration", "matcher": {"match_as": "optional", "default": {"match_as": "equality", "value": 30}}},
                    {"param": "start", "matcher": {"match_as": "date_time", "value": "tomorrow at 3pm"}}
                ]},
                {"assert_that": "tool_called", "tool": "search_contacts", "parameters": [
                    {"param": "query", "matcher": {"match_as": "equality", "value": "ana"}}
                ]}
            ],
            "difficulty": "easy"
        },
        "outputs": {
            "response": "Booked: sync with Ana tomorrow at 15:00.",
            "citations": [{"source": "calendar"}],
            "environment": {"user_time": "2026-03-10T08:00:00Z", "region": "eu"},
            "trace": [
                {"event": "tool_call", "id": "1", "tool": "search_contacts", "params": {"query": "ana"}},
                {"event": "tool_result", "id": "1", "result": [{"email": "Ana@Example.com"}]},
                {"event": "retrieval_results", "results": [{"doc": "calendar policy"}]},
                {"event": "tool_call", "id": "2", "tool": "create_event",
                 "params": {"attendee": "ana@EXAMPLE.COM", "start": "2026-03-11T15:00:00Z"}},
                {"event": "tool_result", "id": "2", "result": {"event_id": "ev-9"}}
            ]
        },
        "split": "test"
    })
    .to_string();
    let case = mb(&text);
    let s = &case.scenario;
    assert_eq!(s.history.len(), 3);
    assert_eq!(s.history[0].role, Role::System);
    assert_eq!(
        s.context.get("tools"),
        Some(&json!(["create_event", "search_contacts"]))
    );
    assert_eq!(
        s.context.get("metadata").and_then(|m| m.get("categories")),
        Some(&json!({"persona": "busy manager"}))
    );
    // The open objects' extra fields are kept, not dropped.
    assert_eq!(
        s.context.get("extra"),
        Some(
            &json!({"split": "test", "inputs.locale": "en-GB", "expectations.difficulty": "easy"})
        )
    );
    let recording = case.recording.as_ref().unwrap();
    let t = &recording.transcript;
    assert_eq!(
        t.user_time.as_ref().map(|z| z.timestamp().to_string()),
        Some("2026-03-10T08:00:00Z".to_owned()),
        "date_time matchers are relative to outputs.environment.user_time"
    );
    let calls: Vec<(&str, Option<&Value>)> = t.turns[0]
        .tool_calls()
        .map(|c| (c.name.as_str(), c.result.as_ref()))
        .collect();
    assert_eq!(
        calls,
        [
            (
                "search_contacts",
                Some(&json!([{"email": "Ana@Example.com"}]))
            ),
            ("create_event", Some(&json!({"event_id": "ev-9"}))),
        ]
    );

    let report = evaluated(&case);
    // expected_response and the date_time parameter are judged: errors without a judge; the
    // search assertion is evaluated all the same.
    assert_verdicts(
        &report,
        &[
            ("judge", Error),
            ("create_event", Error),
            ("search_contacts", Pass),
        ],
    );
    assert_not_graded(&report, &["create_event"]);
    assert_eq!(report.verdicts[0].check, "judge");
    assert!(report.verdicts[0].reason.contains("not graded"));
}

#[test]
fn no_tool_called() {
    let assertions = json!([{"assert_that": "no_tool_called"}]);
    let report = evaluated(&mb(&example(assertions.clone(), &[])));
    assert_verdicts(&report, &[("no tool called", Pass)]);
    let report = evaluated(&mb(&example(assertions, &[("search", json!({"q": "x"}))])));
    assert_verdicts(&report, &[("no tool called", Fail)]);
    assert_reason(&report, "no tool called", Fail, &["search"]);
}

#[test]
fn an_expected_response_is_judged_and_an_omitted_one_is_not() {
    let with = json!({
        "inputs": {"messages": [{"role": "user", "content": "Thanks!"}]},
        "expectations": {"expected_response": "You're welcome.", "assertions": [{"assert_that": "no_tool_called"}]},
        "outputs": {"response": "You're welcome."}
    })
    .to_string();
    let report = evaluated(&mb(&with));
    assert_verdicts(&report, &[("judge", Error), ("no tool called", Pass)]);
    let without = json!({
        "inputs": {"messages": [{"role": "user", "content": "Thanks!"}]},
        "expectations": {"expected_response": null, "assertions": []},
        "outputs": {"response": "Whatever."}
    })
    .to_string();
    let report = evaluated(&mb(&without));
    assert!(report.verdicts.is_empty(), "{}", table(&report));
}

#[test]
fn jsonl_suites_and_arrays() {
    let one = example(json!([{"assert_that": "no_tool_called"}]), &[]);
    let two = example(
        json!([{"assert_that": "no_tool_called"}]),
        &[("t", json!({}))],
    );
    let cases = morganabench::from_text(&format!("{one}\n{two}\n"), "suite.jsonl").unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.scenario.name.as_str()).collect();
    assert_eq!(names, ["suite-1", "suite-2"]);
    let passed: Vec<bool> = cases.iter().map(|c| evaluated(c).passed()).collect();
    assert_eq!(passed, [true, false]);

    let cases =
        agent_test_runtime::formats::from_text(&format!("[{one}, {two}]"), "suite.json", None)
            .unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.scenario.name.as_str()).collect();
    assert_eq!(names, ["suite-1", "suite-2"]);
}

// ---------------------------------------------------------------------------------------------
// Format semantics (semantics.md §6), table-driven

fn param(name: &str, matcher: Value) -> Value {
    json!({"param": name, "matcher": matcher})
}

/// One `tool_called` of `t` with these parameter assertions, on one call of `t` with `params`.
fn t_row(what: &'static str, parameters: Vec<Value>, params: Value, status: Status) -> Row {
    Row {
        what,
        case: example(
            json!([{"assert_that": "tool_called", "tool": "t", "parameters": parameters}]),
            &[("t", params)],
        ),
        run: Default::default(),
        expect: vec![("`t`", status)],
    }
}

#[test]
fn morganabench_semantics() {
    let eq = |v: Value| json!({"match_as": "equality", "value": v});
    let rows = vec![
        t_row(
            "equality: numbers by value (30 == 30.0)",
            vec![param("n", eq(json!(30)))],
            json!({"n": 30.0}),
            Pass,
        ),
        t_row(
            "equality: no string/number coercion",
            vec![param("n", eq(json!(30)))],
            json!({"n": "30"}),
            Fail,
        ),
        t_row(
            "equality: case-sensitive text",
            vec![param("city", eq(json!("Lisbon")))],
            json!({"city": "lisbon"}),
            Fail,
        ),
        t_row(
            "equality: booleans",
            vec![param("urgent", eq(json!(true)))],
            json!({"urgent": true}),
            Pass,
        ),
        t_row(
            "email: the domain in any case",
            vec![param(
                "to",
                json!({"match_as": "email", "value": "ana@example.com"}),
            )],
            json!({"to": "ana@EXAMPLE.com"}),
            Pass,
        ),
        t_row(
            "email: the local part exactly",
            vec![param(
                "to",
                json!({"match_as": "email", "value": "ana@example.com"}),
            )],
            json!({"to": "Ana@example.com"}),
            Fail,
        ),
        t_row(
            "missing: absent passes",
            vec![param("cc", json!({"match_as": "missing"}))],
            json!({"to": "x"}),
            Pass,
        ),
        t_row(
            "missing: present (even null) fails",
            vec![param("cc", json!({"match_as": "missing"}))],
            json!({"cc": null}),
            Fail,
        ),
        t_row(
            "optional: absent passes",
            vec![param(
                "n",
                json!({"match_as": "optional", "default": eq(json!(1))}),
            )],
            json!({}),
            Pass,
        ),
        t_row(
            "optional: present must match",
            vec![param(
                "n",
                json!({"match_as": "optional", "default": eq(json!(1))}),
            )],
            json!({"n": 2}),
            Fail,
        ),
        t_row(
            "optional of a judged matcher: absent passes without a judge",
            vec![param(
                "note",
                json!({"match_as": "optional", "default": {"match_as": "free_text", "value": "polite"}}),
            )],
            json!({}),
            Pass,
        ),
        t_row(
            "free_text: judged (an error without a judge)",
            vec![param(
                "note",
                json!({"match_as": "free_text", "value": "polite"}),
            )],
            json!({"note": "Thanks!"}),
            Error,
        ),
        t_row(
            "date_time: judged (an error without a judge)",
            vec![param(
                "start",
                json!({"match_as": "date_time", "value": "tomorrow 3pm"}),
            )],
            json!({"start": "2026-03-11T15:00:00Z"}),
            Error,
        ),
        t_row(
            "a certain failure beats a judged part of the same call",
            vec![
                param("n", eq(json!(1))),
                param("note", json!({"match_as": "free_text", "value": "polite"})),
            ],
            json!({"n": 2, "note": "Thanks!"}),
            Fail,
        ),
        t_row(
            "extra arguments are fine",
            vec![param("n", eq(json!(1)))],
            json!({"n": 1, "m": 2}),
            Pass,
        ),
        Row {
            what: "some call must satisfy every parameter assertion",
            case: example(
                json!([{"assert_that": "tool_called", "tool": "t", "parameters": [param("a", eq(json!(1))), param("b", eq(json!(2)))]}]),
                &[
                    ("t", json!({"a": 1, "b": 3})),
                    ("t", json!({"a": 1, "b": 2})),
                ],
            ),
            run: Default::default(),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "the assertions may not be split across calls",
            case: example(
                json!([{"assert_that": "tool_called", "tool": "t", "parameters": [param("a", eq(json!(1))), param("b", eq(json!(2)))]}]),
                &[
                    ("t", json!({"a": 1, "b": 3})),
                    ("t", json!({"a": 0, "b": 2})),
                ],
            ),
            run: Default::default(),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "tool_called without parameters: called at all",
            case: example(
                json!([{"assert_that": "tool_called", "tool": "t"}]),
                &[("t", json!({"anything": 1}))],
            ),
            run: Default::default(),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "no_tool_called: no tool at all, whichever",
            case: example(
                json!([{"assert_that": "no_tool_called"}]),
                &[("harmless", json!({}))],
            ),
            run: Default::default(),
            expect: vec![("no tool called", Fail)],
        },
    ];
    // Each row's run is its example's own recording.
    let rows: Vec<Row> = rows
        .into_iter()
        .map(|mut r| {
            r.run = mb(&r.case).recording.unwrap().transcript;
            r
        })
        .collect();
    run_table(SeedFormat::MorganaBench, "example.json", rows);
}

// ---------------------------------------------------------------------------------------------
// Malformed files

#[test]
fn malformed_examples_name_the_file_and_the_path() {
    let err = |text: &str| load_error(SeedFormat::MorganaBench, text, "suite/calendar.json");
    let with = |assertions: Value| {
        json!({"inputs": {"messages": [{"role": "user", "content": "hi"}]},
               "expectations": {"assertions": assertions}})
        .to_string()
    };
    // Unknown fields of the closed objects.
    assert_eq!(
        err(&with(
            json!([{"assert_that": "tool_called", "tool": "t", "parameters": [
            {"param": "a", "matcher": {"match_as": "equality", "value": 1, "strict": true}}]}])
        )),
        "suite/calendar.json: at expectations.assertions[0].parameters[0].matcher.strict: unknown \
         field `strict`, expected one of `match_as`, `value`"
    );
    assert_eq!(
        err(
            &json!({"inputs": {"messages": [{"role": "user", "content": "hi", "name": "ana"}]},
                    "expectations": {}})
            .to_string()
        ),
        "suite/calendar.json: at inputs.messages[0].name: unknown field `name`, expected `role` or \
         `content`"
    );
    // Wrong types.
    assert_eq!(
        err(
            &json!({"inputs": {"messages": [{"role": "user", "content": 42}]}, "expectations": {}})
                .to_string()
        ),
        "suite/calendar.json: at inputs.messages[0].content: invalid type: integer `42`, expected \
         a string"
    );
    assert_eq!(
        err(&with(
            json!([{"assert_that": "tool_called", "tool": "t", "parameters": [
            {"params": ["a", 2], "matcher": {"match_as": "free_text", "value": "x"}}]}])
        )),
        "suite/calendar.json: at expectations.assertions[0].parameters[0].params: expected \
         parameter names"
    );
    assert_eq!(
        err(&with(json!([{"assert_that": "tool_used", "tool": "t"}]))),
        "suite/calendar.json: at expectations.assertions[0].assert_that: unknown assertion \
         `tool_used`, expected `tool_called` or `no_tool_called`"
    );
    // A group is judged jointly: an equality matcher cannot be one.
    assert_eq!(
        err(&with(
            json!([{"assert_that": "tool_called", "tool": "t", "parameters": [
            {"params": ["a", "b"], "matcher": {"match_as": "equality", "value": 1}}]}])
        )),
        "suite/calendar.json: at expectations.assertions[0].parameters[0].matcher: a parameter \
         group is judged jointly: expected a `free_text`, `date_time` or `optional` matcher"
    );
    // JSONL: the line.
    let e = load_error(
        SeedFormat::MorganaBench,
        &format!("{}\n{{\"inputs\": ", with(json!([]))),
        "suite/calendar.jsonl",
    );
    assert!(
        e.starts_with("suite/calendar.jsonl: at line 2: not valid JSON"),
        "{e}"
    );
}

/// A `developer` message (OpenAI's newer name for the system role) is history, in the example
/// and in the recorded run read from its `outputs` alike.
#[test]
fn a_developer_message_is_a_system_message() {
    let case = mb(
        r#"{"inputs": {"messages": [{"role": "developer", "content": "Be brief."}, {"role": "user", "content": "hi"}]},
            "expectations": {"assertions": [{"assert_that": "no_tool_called"}]},
            "outputs": {"response": "Hello.", "trace": []}}"#,
    );
    assert_eq!(case.scenario.history.len(), 1);
    assert_passes(&evaluated(&case));
}
