//! Native scenario JSON: random, edited and mutated documents load or are refused with a
//! message, and every scenario the builders can make saves and reloads equal.

use agent_test_runtime::LoadError;
use agent_test_runtime::check::IntoExpectation;
use agent_test_runtime::check::{Expectation, ToolCheck};
use agent_test_runtime::load::load_json;
use agent_test_runtime::matcher::Matcher;
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::model::{Message, Role};
use agent_test_runtime::prelude::*;
use agent_test_runtime::scenario::{Scenario, Step};
use proptest::arbitrary::any as arbitrary;
use proptest::option;
use proptest::prelude::{Just, Strategy, prop_assert, prop_assert_eq, prop_oneof, proptest};
use serde_json::Value;
use std::time::Duration;

use crate::mutate::{apply_all, edit_text, edits, mutations};
use crate::{
    arb_json, assert_message, config, doc_file, edgy_u64, edgy_usize, json_path_soup, name,
    odd_number, odd_string,
};

/// Loads, and checks the answer.
pub fn load(text: &str) -> Option<Scenario> {
    match load_json::<Scenario>("scenario.json", text) {
        Ok(s) => Some(s),
        Err(LoadError { message, .. }) => {
            assert_message(&message, &"a scenario");
            None
        }
    }
}

pub fn documented() -> String {
    doc_file("scenario.json").text
}

/// A matcher, nested a few levels, from every builder.
fn matcher() -> impl Strategy<Value = Matcher> {
    let leaf = prop_oneof![
        arb_json().prop_map(|v| v.into_matcher()),
        (arb_json(), arbitrary::<bool>(), arbitrary::<bool>()).prop_map(|(v, u, w)| {
            let mut m = exact(v);
            if u {
                m = m.unordered();
            }
            if w {
                m = m.wildcards();
            }
            m.into_matcher()
        }),
        (odd_string(), arbitrary::<bool>()).prop_map(|(s, i)| if i {
            contains(s).ignore_case().into_matcher()
        } else {
            contains(s).into_matcher()
        }),
        odd_string().prop_map(regex),
        odd_string().prop_map(expr),
        (odd_string(), arbitrary::<u32>())
            .prop_map(|(s, t)| date(s).tolerance_minutes(t).into_matcher()),
        arb_json().prop_map(matches_schema),
        Just(any()),
        Just(missing()),
        odd_string().prop_map(email),
        odd_string().prop_map(free_text),
        odd_string().prop_map(date_time),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(optional),
            inner.clone().prop_map(not),
            proptest::collection::vec(inner.clone(), 0..3).prop_map(one_of),
            proptest::collection::vec(inner.clone(), 0..3).prop_map(any_of),
            proptest::collection::vec(inner, 0..3).prop_map(all_of),
        ]
    })
}

fn tool_check() -> impl Strategy<Value = ToolCheck> {
    (
        prop_oneof![
            name().prop_map(tool),
            name().prop_map(no_tool),
            name().prop_map(node),
            name().prop_map(any_call),
        ],
        proptest::collection::vec((odd_string(), matcher()), 0..3),
        option::of(arb_json()),
        option::of(matcher()),
        proptest::collection::vec(arbitrary::<bool>(), 6),
        edgy_usize(),
        edgy_usize(),
    )
        .prop_map(|(mut c, args, all, result, flags, n, m)| {
            for (path, matcher) in args {
                c = c.arg(path, matcher);
            }
            if let Some(all) = all {
                c = c.args(all);
            }
            if let Some(result) = result {
                c = c.result(result);
            }
            if flags[0] {
                c = c.strict();
            }
            if flags[1] {
                c = c.every_call();
            }
            if flags[2] {
                c = c.succeeded();
            }
            if flags[3] {
                c = c.between(n.min(m), n.max(m));
            }
            if flags[4] {
                c = c.at_position(n);
            }
            if flags[5] {
                c = c.forbid_arg("x").tool(tool("inner").arg("a", 1));
            }
            c
        })
}

fn names() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(name(), 0..4)
}

/// One expectation from every kind of check, with the options every check takes.
fn expectation() -> impl Strategy<Value = Expectation> {
    let text = prop_oneof![Just(reply()), Just(replies()), Just(conversation())];
    let check = prop_oneof![
        (
            text,
            0u8..7,
            odd_string(),
            arbitrary::<bool>(),
            arbitrary::<bool>()
        )
            .prop_map(|(t, op, v, case, trim)| {
                let c = match op {
                    0 => t.contains(v),
                    1 => t.not_contains(v),
                    2 => t.starts_with(v),
                    3 => t.ends_with(v),
                    4 => t.equals(v),
                    5 => t.matches(v),
                    _ => t.not_matches(v),
                };
                let c = if case {
                    c.case_sensitive()
                } else {
                    c.case_insensitive()
                };
                let c = if trim { c.trimmed() } else { c };
                c.into_expectation()
            }),
        tool_check().prop_map(IntoExpectation::into_expectation),
        (odd_string(), matcher(), 0u8..4).prop_map(|(p, m, op)| match op {
            0 => field(p).is(m).into_expectation(),
            1 => field(p).is_not(m).into_expectation(),
            2 => field(p).exists().into_expectation(),
            _ => field(p).missing().into_expectation(),
        }),
        (
            prop_oneof![odd_string(), json_path_soup()],
            arb_json(),
            0u8..3
        )
            .prop_map(|(q, v, op)| match op {
                0 => json_path(q).exists().into_expectation(),
                1 => json_path(q).not_exists().into_expectation(),
                _ => json_path(q).equals(v).into_expectation(),
            }),
        (arb_json(), option::of(odd_string())).prop_map(|(s, at)| match at {
            Some(at) => schema(s).at(at).into_expectation(),
            None => schema(s).into_expectation(),
        }),
        arbitrary::<u16>().prop_map(|s| http_status(s).into_expectation()),
        Just(http_success().into_expectation()),
        (edgy_u64(), arbitrary::<bool>()).prop_map(|(ms, total)| {
            let c = latency().at_most(Duration::from_millis(ms));
            if total { c.total() } else { c }.into_expectation()
        }),
        (edgy_u64(), edgy_u64(), edgy_u64()).prop_map(|(t, i, o)| {
            tokens()
                .total_at_most(t)
                .input_at_most(i)
                .output_at_most(o)
                .into_expectation()
        }),
        odd_string().prop_map(|s| state_is(s).into_expectation()),
        odd_string().prop_map(|s| transitioned_to(s).into_expectation()),
        Just(workflow_complete().into_expectation()),
        odd_string().prop_map(|s| guardrail_triggered(s).into_expectation()),
        odd_string().prop_map(|s| guardrail_not_triggered(s).into_expectation()),
        Just(any_guardrail_triggered().into_expectation()),
        Just(no_guardrail_triggered().into_expectation()),
        (names(), edgy_usize()).prop_map(|(n, m)| agent_invoked(n).min_calls(m).into_expectation()),
        names().prop_map(|n| agent_not_invoked(n).into_expectation()),
        (odd_string(), odd_string())
            .prop_map(|(a, t)| agent_response(a).contains(t).into_expectation()),
        (names(), arbitrary::<bool>()).prop_map(|(n, s)| {
            let c = tool_sequence(n);
            if s { c.succeeded() } else { c }.into_expectation()
        }),
        names().prop_map(|n| required_tools(n).into_expectation()),
        names().prop_map(|n| forbidden_tools(n).into_expectation()),
        Just(no_tools().into_expectation()),
        (
            proptest::collection::vec((odd_string(), odd_string(), matcher()), 0..3),
            0u8..5,
            names(),
        )
            .prop_map(|(calls, mode, fields)| {
                let t = trajectory(calls.into_iter().map(|(n, p, m)| tool_call(n).arg(p, m)));
                let t = match mode {
                    0 => t.strict(),
                    1 => t.unordered(),
                    2 => t.subset(),
                    3 => t.superset(),
                    _ => t.succeeded(),
                };
                if fields.is_empty() {
                    t.into_expectation()
                } else {
                    t.compare_fields("tool", fields).into_expectation()
                }
            }),
        (odd_string(), arbitrary::<f64>(), names(), 0u8..5).prop_map(|(c, th, not, how)| {
            let j = judge(c).threshold(th).must_not(not);
            match how {
                0 => j.on_transcript(),
                1 => j.with_tool_sequence(),
                2 => j.hallucination().without_prompt(),
                3 => j.on_node("n", "output").with_tool_results(),
                _ => j.expected_response("reference"),
            }
            .into_expectation()
        }),
        (odd_string(), odd_string())
            .prop_map(|(n, p)| node_output(n, p).contains("x").into_expectation()),
    ];
    (
        check,
        option::of(odd_string()),
        proptest::collection::vec(odd_string(), 0..2),
        arbitrary::<bool>(),
        option::of(odd_string()),
        arbitrary::<bool>(),
    )
        .prop_map(|(check, id, deps, warning, label, so_far)| {
            let mut e = check;
            if let Some(id) = id {
                e = e.id(id);
            }
            for d in deps {
                e = e.depends_on(d);
            }
            if warning {
                e = e.warning();
            }
            if let Some(l) = label {
                e = e.label(l);
            }
            if so_far {
                e = e.so_far();
            }
            e
        })
}

/// A scenario from the builders, with every kind of step.
pub fn scenario() -> impl Strategy<Value = Scenario> {
    let step = prop_oneof![
        (odd_string(), proptest::collection::vec(expectation(), 0..3))
            .prop_map(|(t, e)| (0u8, t, e)),
        odd_string().prop_map(|t| (1u8, t, Vec::new())),
    ];
    (
        odd_string(),
        option::of(odd_string()),
        proptest::collection::vec(("[A-Z_]{1,8}", arb_json()), 0..3),
        proptest::collection::vec(
            (
                proptest::sample::select(vec![Role::System, Role::User, Role::Assistant]),
                odd_string(),
            ),
            0..2,
        ),
        // At least one step: an empty scenario is refused on load.
        proptest::collection::vec(step, 1..4),
        proptest::collection::vec(expectation(), 0..4),
    )
        .prop_map(|(name, description, context, history, steps, expect)| {
            let mut s = Scenario::new(name);
            if let Some(d) = description {
                s = s.described(d);
            }
            for (k, v) in context {
                s = s.context(k, v);
            }
            s = s.history(history.into_iter().map(|(r, c)| Message::new(r, c)));
            for (kind, text, checks) in steps {
                if kind == 0 {
                    s = s.user(text);
                    for c in checks {
                        s = s.expect_turn(c);
                    }
                } else {
                    s = s.system(text);
                }
            }
            for e in expect {
                s = s.expect(e);
            }
            s
        })
}

/// Found by `scenarios_round_trip`: a key of `.args(json!({..}))` is one key, but it saved as
/// a path, so `{"a.b": 1}` reloaded as `a` → `b` (and `"."` as the whole argument map).
#[test]
fn a_literal_key_reloads_as_that_key() {
    let scenario = Scenario::new("keys").expect(tool("t").args(json!({"a.b": 1, ".": 2})));
    let text = serde_json::to_string(&scenario).unwrap();
    let back = load(&text).unwrap();
    assert_eq!(back, scenario);
    let t = agent_test_runtime::model::Transcript::new(vec![agent_test_runtime::model::Turn::new(
        0,
        "hi",
        Reply::text("").call(Call::tool("t", json!({"a": {"b": 9}, "a.b": 1, ".": 2}))),
        1,
    )]);
    assert!(scenario.evaluate(&t).passed());
    assert!(back.evaluate(&t).passed());
}

#[test]
fn the_documented_scenario_loads() {
    assert!(load(&documented()).is_some());
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_text_never_panics(text in prop_oneof![arbitrary::<String>(), arb_json().prop_map(|v| v.to_string())]) {
        load(&text);
    }

    #[test]
    fn edited_text_never_panics(edits in edits()) {
        load(&edit_text(&documented(), &edits));
    }

    #[test]
    fn mutated_scenarios_never_panic(mutations in mutations(), number in odd_number()) {
        let doc: Value = serde_json::from_str(&documented()).unwrap();
        let mut doc = apply_all(doc, &mutations);
        load(&doc.to_string());
        // A number where the documented scenario has numbers.
        if let Some(Value::Object(o)) = doc.pointer_mut("/expect/2/check/count") {
            o.insert("exactly".into(), number);
        }
        load(&doc.to_string());
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// What the builders make saves and reloads equal, unless a check can never pass: that
    /// one is refused on load, saying so.
    #[test]
    fn scenarios_round_trip(scenario in scenario()) {
        let turn_checks = scenario.steps.iter().flat_map(|s| match s {
            Step::User { expect, .. } => expect.as_slice(),
            _ => &[],
        });
        let impossible = turn_checks.chain(&scenario.expect).any(|e| e.check.problem().is_some());
        let text = match serde_json::to_string_pretty(&scenario) {
            Ok(text) => text,
            // Some refused checks have no data form at all.
            Err(e) => {
                prop_assert!(impossible && e.to_string().starts_with("impossible constraint: "), "{}", e);
                return Ok(());
            }
        };
        let back = load_json::<Scenario>("scenario.json", &text);
        if impossible {
            let err = back.expect_err("an impossible check is refused");
            prop_assert!(err.message.starts_with("impossible constraint: "), "{}", err);
        } else {
            prop_assert_eq!(back.as_ref().ok(), Some(&scenario), "{:?}\n{}", back.as_ref().err(), text);
        }
    }
}
