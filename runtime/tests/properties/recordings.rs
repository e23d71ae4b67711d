//! Recorded runs: random text, mutated recordings, and the round trip of generated ones.

use agent_test_runtime::model::{
    Call, CallKind, Context, Gap, Guardrail, Message, Part, Reply, Role, ToolErrorKind, Transcript,
    Turn, Usage, Variable, Workflow,
};
use agent_test_runtime::report::prices::Cost;
use agent_test_runtime::scenario::RunScenario;
use agent_test_runtime::{RecordedRun, ScenarioInfo};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use proptest::option;
use proptest::prelude::*;
use serde_json::Value;

use crate::mutate::{apply_all, edit_text, edits, mutations};
use crate::{arb_json, assert_message, config, doc_file, edgy_u64, edgy_usize, name, odd_string};

/// Loads, and checks the answer.
pub fn load(text: &str) -> Option<RecordedRun> {
    match agent_test_runtime::load::run_from_text(text, "run.json", None) {
        Ok(run) => Some(run),
        Err(e) => {
            assert_message(&e.message, &e);
            None
        }
    }
}

fn call() -> impl Strategy<Value = Call> {
    let leaf = (
        name(),
        any::<bool>(),
        option::of(odd_string()),
        arb_json(),
        option::of(arb_json()),
        any::<bool>(),
        edgy_usize(),
        option::of(proptest::sample::select(vec![
            ToolErrorKind::Validation,
            ToolErrorKind::Execution,
        ])),
        option::of(edgy_usize()),
        option::of(edgy_u64()),
    )
        .prop_map(
            |(name, node, id, arguments, result, error, position, error_kind, step, latency_ms)| {
                // Every field set (the types are `#[non_exhaustive]`: no struct literal here).
                let mut c = Call::tool(name, arguments);
                c.kind = if node { CallKind::Node } else { CallKind::Tool };
                c.id = id;
                c.result = result;
                c.error = error;
                c.error_kind = error_kind;
                c.step = step;
                c.latency_ms = latency_ms;
                c.position = position;
                c
            },
        );
    leaf.prop_recursive(3, 12, 3, |inner| {
        (inner.clone(), proptest::collection::vec(inner, 0..3)).prop_map(|(mut c, children)| {
            c.children = children;
            c
        })
    })
}

fn message() -> impl Strategy<Value = Message> {
    (
        proptest::sample::select(vec![Role::System, Role::User, Role::Assistant]),
        odd_string(),
    )
        .prop_map(|(role, content)| Message::new(role, content))
}

fn reply() -> impl Strategy<Value = Reply> {
    (
        odd_string(),
        option::of(arb_json()),
        proptest::collection::vec(call(), 0..3),
        option::of((
            option::of(edgy_u64()),
            option::of(edgy_u64()),
            option::of(edgy_u64()),
        )),
        option::of(any::<u16>()),
        option::of(odd_string()),
        option::of(edgy_u64()),
        option::of((
            option::of(odd_string()),
            proptest::collection::vec(odd_string(), 0..3),
            any::<bool>(),
        )),
        proptest::collection::vec(
            (odd_string(), any::<bool>(), option::of(odd_string())),
            0..2,
        ),
        proptest::collection::vec(odd_string(), 0..2),
        proptest::collection::vec(
            (
                proptest::sample::select(vec![
                    Part::Calls,
                    Part::Arguments,
                    Part::Results,
                    Part::Outcomes,
                    Part::ReplyText,
                    Part::Usage,
                ]),
                odd_string(),
            ),
            0..2,
        ),
    )
        .prop_map(
            |(
                text,
                body,
                calls,
                usage,
                http_status,
                chat_model,
                latency_ms,
                workflow,
                guardrails,
                notes,
                gaps,
            )| {
                let mut r = Reply::text(text);
                r.body = body;
                r.calls = calls;
                r.usage = usage.map(|(input_tokens, output_tokens, total_tokens)| {
                    let mut u = Usage::default();
                    u.input_tokens = input_tokens;
                    u.output_tokens = output_tokens;
                    u.total_tokens = total_tokens;
                    u
                });
                r.http_status = http_status;
                r.chat_model = chat_model;
                r.latency_ms = latency_ms;
                r.workflow = workflow.map(|(state, transitions, complete)| Workflow {
                    state,
                    transitions,
                    complete,
                });
                r.guardrails = guardrails
                    .into_iter()
                    .map(|(name, triggered, message)| Guardrail {
                        name,
                        triggered,
                        message,
                    })
                    .collect();
                r.notes = notes;
                r.gaps = gaps
                    .into_iter()
                    .map(|(part, reason)| Gap::new(part, reason))
                    .collect();
                r
            },
        )
}

fn turn() -> impl Strategy<Value = Turn> {
    (
        edgy_usize(),
        proptest::collection::vec(message(), 0..2),
        odd_string(),
        reply(),
        option::of(edgy_u64()),
        option::of(odd_string()),
        option::of(prop_oneof![
            (0u64..u64::MAX).prop_map(|n| Cost::Usd(n as f64 / 1e8)),
            odd_string().prop_map(Cost::Unknown),
        ]),
    )
        .prop_map(|(index, before, input, reply, latency_ms, error, cost)| {
            let mut t = Turn::new(index, input, reply, 0);
            t.before = before;
            t.latency_ms = latency_ms;
            t.error = error;
            t.cost = cost;
            t
        })
}

/// A variable-bag entry: mostly at the paths the seeds' request and extract steps set
/// (`var.acct`, `steps.fetch.output`, ...), often holding an object with the fields their
/// variable checks read, so that the checks' operators meet values; sometimes anything.
fn variable() -> impl Strategy<Value = (String, Value)> {
    let path = prop_oneof![
        3 => proptest::sample::select(vec![
            "var.acct",
            "steps.fetch.output",
            "var.accountStatus",
            "var.transferId",
            "steps.verify.output",
        ])
        .prop_map(str::to_owned),
        1 => odd_string(),
    ];
    let field = proptest::sample::select(vec![
        "status", "balance", "tags", "note", "email", "id", "closedAt", "previous",
    ]);
    let account = proptest::collection::vec((field, arb_json()), 0..6).prop_map(|fields| {
        Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    });
    (path, prop_oneof![2 => account, 1 => arb_json()])
}

/// Any transcript: odd text, numbers at the edges, call trees, any `user_time`.
pub fn transcript() -> impl Strategy<Value = Transcript> {
    (
        proptest::collection::vec(message(), 0..2),
        proptest::collection::vec(turn(), 0..4),
        proptest::collection::vec(("[A-Z_]{1,8}", arb_json()), 0..3),
        option::of((
            Timestamp::MIN.as_second()..Timestamp::MAX.as_second(),
            proptest::sample::select(vec!["UTC", "Europe/Lisbon", "Asia/Kathmandu"]),
        )),
        proptest::collection::vec(variable(), 0..4),
    )
        .prop_map(|(history, turns, context, user_time, variables)| {
            let mut c = Context::default();
            for (k, v) in context {
                c.insert(k, v);
            }
            let mut t = Transcript::new(turns);
            t.history = history;
            t.context = c;
            t.user_time = user_time.map(|(s, tz)| {
                Timestamp::from_second(s)
                    .unwrap()
                    .to_zoned(TimeZone::get(tz).unwrap())
            });
            t.variables = variables
                .into_iter()
                .map(|(p, v)| Variable::new(p, v))
                .collect();
            t
        })
}

fn info() -> impl Strategy<Value = ScenarioInfo> {
    (
        odd_string(),
        option::of(odd_string()),
        option::of(odd_string()),
        option::of(odd_string()),
        option::of(any::<u32>()),
        edgy_usize(),
    )
        .prop_map(|(name, description, module, file, line, repeat)| {
            let mut i = ScenarioInfo::new(name);
            i.description = description;
            i.module = module;
            i.file = file;
            i.line = line;
            i.repeat = repeat;
            i
        })
}

/// The documented recording, as text.
fn documented() -> String {
    doc_file("recorded-run.json").text
}

#[test]
fn the_documented_recording_loads() {
    assert!(load(&documented()).is_some());
}

/// Found by `traces::mutated_fixtures_never_panic`: a tool that returned `null` (and a body
/// that is `null`) reloaded as "no result" (serde reads a present `null` as `None`), so a
/// check on the result passed on the run and failed on its recording.
#[test]
fn a_null_result_and_a_null_body_reload_as_null() {
    use agent_test_runtime::prelude::{any, tool};
    let reply = Reply::text("ok")
        .body(Value::Null)
        .call(Call::tool("t", serde_json::json!({})).result(Value::Null));
    let run = RecordedRun {
        scenario: ScenarioInfo::new("null"),
        transcript: Transcript::new(vec![Turn::new(0, "hi", reply, 1)]),
    };
    let text = serde_json::to_string(&run).unwrap();
    assert!(
        text.contains(r#""body":null"#) && text.contains(r#""result":null"#),
        "{text}"
    );
    let back = agent_test_runtime::load::run_from_text(&text, "run.json", None).unwrap();
    assert_eq!(back, run);
    let scenario =
        agent_test_runtime::scenario::Scenario::new("null").expect(tool("t").result(any()));
    assert!(scenario.evaluate(&run.transcript).passed());
    assert!(scenario.evaluate(&back.transcript).passed());
    // Absent stays absent.
    let absent = agent_test_runtime::load::run_from_text(r#"{"scenario": {"name": "x"}, "transcript": {"turns": [{"index": 0, "input": "hi", "reply": {"calls": [{"name": "t"}]}}]}}"#, "run.json", None)
    .unwrap();
    assert_eq!(absent.transcript.turns[0].reply.calls[0].result, None);
    assert_eq!(absent.transcript.turns[0].reply.body, None);
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_text_never_panics(text in prop_oneof![any::<String>(), arb_json().prop_map(|v| v.to_string())]) {
        load(&text);
    }

    #[test]
    fn edited_text_never_panics(edits in edits()) {
        load(&edit_text(&documented(), &edits));
    }

    #[test]
    fn mutated_recordings_never_panic(mutations in mutations()) {
        let doc: Value = serde_json::from_str(&documented()).unwrap();
        let doc = apply_all(doc, &mutations);
        let text = doc.to_string();
        let from_text = load(&text);
        // The parsed value goes the same way, or it was too deep to parse.
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            match agent_test_runtime::load::run_from_text(&value.to_string(), "run.json", None) {
                Ok(run) => prop_assert_eq!(Some(run), from_text),
                Err(e) => assert_message(&e.message, &e),
            }
        }
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// A recording saves and reloads equal, whatever it holds.
    #[test]
    fn recordings_round_trip(scenario in info(), transcript in transcript()) {
        let run = RecordedRun { scenario, transcript };
        let text = serde_json::to_string_pretty(&run).unwrap();
        let back = agent_test_runtime::load::run_from_text(&text, "run.json", None);
        prop_assert_eq!(back.as_ref().ok(), Some(&run), "{:?}", back.as_ref().err());
    }
}
