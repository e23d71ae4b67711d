//! Every framework of the corpus, read as what really ran (the tools' own record), and the
//! checks users write: what really ran passes, every wrong claim fails, and a check on what a
//! framework's spans do not carry is an error — never a pass.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::{Call, CallKind, Transcript};
use agent_test_runtime::scenario::RunScenario;
use agent_test_runtime::trace::parse;
use serde_json::Value;

use super::corpus::{Entry, entries};

fn read(e: &Entry) -> Transcript {
    parse(&e.trace, None).unwrap_or_else(|err| panic!("{}: {err}", e.name))
}

fn walk(calls: &[Call]) -> Vec<&Call> {
    let mut out = Vec::new();
    for c in calls {
        c.walk(&mut |c| out.push(c));
    }
    out
}

#[test]
fn the_corpus_covers_the_frameworks() {
    let names: Vec<String> = entries().into_iter().map(|e| e.name).collect();
    assert!(names.len() >= 10, "{names:?}");
}

#[test]
fn every_trace_reads_as_what_really_ran() {
    for e in entries() {
        let t = read(&e);
        let n = &e.name;
        assert_eq!(t.turns.len(), e.turns(), "{n}: one turn per user turn");
        for (i, turn) in t.turns.iter().enumerate() {
            the_turn_is_what_ran(&e, i, turn);
        }
        // Usage counted once.
        let usage = t
            .turns
            .iter()
            .filter_map(|t| t.reply.usage)
            .collect::<Vec<_>>();
        if usage.is_empty() {
            assert!(e.lacks("usage"), "{n}: usage missing");
        } else {
            let total: u64 = usage.iter().filter_map(|u| u.total()).sum();
            assert_eq!(total, e.total_tokens(), "{n}: usage once");
        }
        for turn in &t.turns {
            let spans = turn
                .reply
                .spans
                .as_ref()
                .expect("a turn read from spans says so");
            assert!(
                !spans.may_hide_calls(),
                "{n}: every span of the corpus is understood: {spans}"
            );
        }
    }
}

/// Turn `i` of entry `e` holds the executions of that turn, once each.
fn the_turn_is_what_ran(e: &Entry, i: usize, turn: &agent_test_runtime::model::Turn) {
    let n = &format!("{} turn {}", e.name, i + 1);
    let calls = walk(&turn.reply.calls);
    let tools: Vec<&Call> = calls
        .iter()
        .copied()
        .filter(|c| c.kind == CallKind::Tool)
        .collect();
    // One executed call is one call: the tool calls read are the executions, once each.
    let delegation = e.delegation();
    let framework = e.framework_tools();
    let story: Vec<&Call> = tools
        .iter()
        .copied()
        .filter(|c| c.name != delegation && !framework.contains(&c.name))
        .collect();
    let executions = e.executions(i);
    assert_eq!(
        story.len(),
        executions.len(),
        "{n}: as many calls as executions: {:#?}",
        story.iter().map(|c| &c.name).collect::<Vec<_>>()
    );
    let mut unmatched: Vec<&Call> = story.clone();
    for x in executions {
        let name = e.tool(x["tool"].as_str().unwrap_or_default());
        let failed = x.get("error").is_some();
        let args = x["arguments"].as_object().expect("arguments");
        let same = |c: &&Call| {
            c.name == name
                && (e.lacks("outcomes") || c.error == failed)
                && (e.lacks("arguments")
                    || args
                        .iter()
                        .all(|(k, v)| c.arguments.get(k).is_some_and(|a| same_json(a, v))))
        };
        let at = unmatched
            .iter()
            .position(same)
            .unwrap_or_else(|| panic!("{n}: no call read for the execution {x}: {story:#?}"));
        unmatched.remove(at);
    }
    if i == 0 {
        let delegations = tools.iter().filter(|c| c.name == delegation).count();
        assert_eq!(
            delegations,
            usize::from(e.delegation_is_a_call()),
            "{n}: the delegation `{delegation}` once"
        );
    }
    // Agents: the story's two, no framework wrapper or graph node.
    let nodes: Vec<&str> = calls
        .iter()
        .filter(|c| c.kind == CallKind::Node)
        .map(|c| c.name.as_str())
        .collect();
    if e.lacks("sub_agents") {
        assert!(nodes.is_empty(), "{n}: {nodes:?}");
    } else if i == 0 {
        assert_eq!(
            nodes.iter().filter(|&&x| x == "concierge").count(),
            1,
            "{n}: {nodes:?}"
        );
        assert!(
            nodes
                .iter()
                .all(|&x| x == "travel_agent" || x == "concierge"),
            "{n}: {nodes:?}"
        );
        let concierge = calls
            .iter()
            .find(|c| c.kind == CallKind::Node && c.name == "concierge")
            .expect("the concierge");
        assert!(
            walk(&concierge.children)
                .iter()
                .any(|c| c.name == e.tool("find_restaurants")),
            "{n}: the concierge's tool nests under it"
        );
    } else {
        assert!(nodes.iter().all(|&x| x == "travel_agent"), "{n}: {nodes:?}");
    }
    // Parallel calls share their model step, the bookings have steps of their own.
    if i == 0 && !e.lacks("steps") {
        let steps = |name: &str| -> Vec<Option<usize>> {
            story
                .iter()
                .filter(|c| c.name == e.tool(name))
                .map(|c| c.step)
                .collect()
        };
        let search = steps("search_hotels");
        assert!(search[0].is_some(), "{n}: steps are known");
        assert_eq!(search, steps("get_weather"), "{n}: one step, two calls");
        let book = steps("book_hotel");
        assert!(book[0] > search[0] && book[1] > book[0], "{n}: {book:?}");
    }
    if e.lacks("reply") {
        assert_eq!(turn.reply.text, "", "{n}");
    } else {
        assert_eq!(turn.reply.text.trim(), e.reply_of(i), "{n}: the reply");
        assert!(
            turn.input.contains(&e.user_of(i)),
            "{n}: the input: {:?}",
            turn.input
        );
    }
    assert!(turn.error.is_none(), "{n}: {:?}", turn.error);
}

/// JSON equality with numbers by value (`2 == 2.0`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

#[test]
fn what_really_ran_passes_and_every_wrong_claim_fails() {
    for e in entries() {
        let t = read(&e);
        let report = e.passing().evaluate(&t);
        assert!(report.passed(), "{}: {report}", e.name);
        for scenario in e.failing() {
            let report = scenario.evaluate(&t);
            let v = &report.verdicts[0];
            assert_eq!(
                v.status,
                Status::Fail,
                "{}: `{}` must fail: {}",
                e.name,
                v.label,
                v.reason
            );
        }
    }
}

#[test]
fn checks_on_what_a_framework_does_not_record_are_errors() {
    let mut seen = 0;
    for e in entries() {
        let t = read(&e);
        let report = e.unknowable().evaluate(&t);
        for v in &report.verdicts {
            seen += 1;
            assert_eq!(
                v.status,
                Status::Error,
                "{}: `{}` cannot be known from these spans: {}",
                e.name,
                v.label,
                v.reason
            );
            assert!(
                v.reason.starts_with("not evaluated: on turn 1, the ")
                    || v.reason.starts_with("not measured"),
                "{}: {}",
                e.name,
                v.reason
            );
        }
    }
    assert!(seen > 0, "some framework leaves something out");
}
