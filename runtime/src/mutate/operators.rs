//! The mutation operators: each makes, from a transcript, the broken transcripts an agent could
//! have produced instead — a call dropped, duplicated, swapped, moved, with an argument or a
//! result changed or its outcome flipped; a reply cut, negated, swapped or emptied; a budget
//! blown; a turn dropped. Every place is tried in order, so the mutants of a transcript are the
//! same on every run and named by where they changed it.

use serde_json::{Value, json};

use super::{Changed, Mutant};
use agent_test_core::model::prices::Cost;
use agent_test_core::model::{Call, CallKind, ToolErrorKind, Transcript};

/// Where a tool call is in a turn: the path of child indices from the turn's top-level calls.
type Path = Vec<usize>;

/// Every mutant of `t`, in a fixed order.
pub(super) fn all(t: &Transcript) -> Vec<Mutant> {
    let mut out = Vec::new();
    for (ti, turn) in t.turns.iter().enumerate() {
        let n = ti + 1;
        let calls = &turn.reply.calls;
        let paths = tool_paths(calls);
        for p in &paths {
            let Some(call) = call_at(calls, p) else {
                continue;
            };
            let at = format!("turn {n}, `{}`", call.name);
            out.push(edit(
                t,
                ti,
                Changed::Calls,
                format!("dropped the call of {at}"),
                |calls| {
                    remove(calls, p);
                },
            ));
            let copy = call.clone();
            out.push(edit(
                t,
                ti,
                Changed::Calls,
                format!("called {at} twice"),
                |calls| {
                    insert(calls, p, copy);
                },
            ));
            arguments(t, ti, p, call, &at, &mut out);
            outcome_and_result(t, ti, p, call, &at, &mut out);
        }
        swaps(t, ti, &paths, &mut out);
        moves(t, ti, &paths, &mut out);
        replies(t, ti, &mut out);
        budgets(t, ti, &mut out);
        if t.turns.len() > 1 {
            let mut m = t.clone();
            m.turns.remove(ti);
            for (i, turn) in m.turns.iter_mut().enumerate() {
                turn.index = i;
            }
            out.push(Mutant::new(format!("dropped turn {n}"), Changed::Turns, m));
        }
    }
    out
}

/// A mutant made by editing turn `ti`'s calls.
fn edit(
    t: &Transcript,
    ti: usize,
    changed: Changed,
    change: String,
    f: impl FnOnce(&mut Vec<Call>),
) -> Mutant {
    let mut m = t.clone();
    if let Some(turn) = m.turns.get_mut(ti) {
        f(&mut turn.reply.calls);
    }
    Mutant::new(change, changed, m)
}

/// Two calls that follow each other under one parent, swapped (two equal calls would swap
/// into the same transcript: no mutant).
fn swaps(t: &Transcript, ti: usize, paths: &[Path], out: &mut Vec<Mutant>) {
    let Some(turn) = t.turns.get(ti) else { return };
    for pair in paths.windows(2) {
        let [a, b] = pair else { continue };
        let (Some(ca), Some(cb)) = (call_at(&turn.reply.calls, a), call_at(&turn.reply.calls, b))
        else {
            continue;
        };
        if a.split_last().map(|(_, p)| p) != b.split_last().map(|(_, p)| p) || ca == cb {
            continue;
        }
        let change = format!("swapped `{}` and `{}` in turn {}", ca.name, cb.name, ti + 1);
        let (x, y) = (ca.clone(), cb.clone());
        out.push(edit(t, ti, Changed::Calls, change, |calls| {
            if let Some(c) = call_at_mut(calls, a) {
                *c = y;
            }
            if let Some(c) = call_at_mut(calls, b) {
                *c = x;
            }
        }));
    }
}

/// An argument's value changed, its type changed, its key dropped — for the call's first
/// argument in key order (one place per call keeps the number of mutants linear).
fn arguments(t: &Transcript, ti: usize, p: &Path, call: &Call, at: &str, out: &mut Vec<Mutant>) {
    let Value::Object(args) = &call.arguments else {
        return;
    };
    let Some((key, value)) = args.iter().min_by(|a, b| a.0.cmp(b.0)) else {
        return;
    };
    for (what, new) in [
        ("changed", Some(other_value(value))),
        ("retyped", Some(other_type(value))),
        ("dropped", None),
    ] {
        let change = format!("{what} argument `{key}` of {at}");
        let key = key.clone();
        out.push(edit(t, ti, Changed::Arguments, change, |calls| {
            if let Some(Value::Object(args)) = call_at_mut(calls, p).map(|c| &mut c.arguments) {
                match new {
                    Some(v) => {
                        args.insert(key, v);
                    }
                    None => {
                        args.remove(&key);
                    }
                }
            }
        }));
    }
}

/// A successful call marked failed and a failed one successful; one field of a successful
/// call's result changed.
fn outcome_and_result(
    t: &Transcript,
    ti: usize,
    p: &Path,
    call: &Call,
    at: &str,
    out: &mut Vec<Mutant>,
) {
    if call.error {
        let change = format!("made the failed call of {at} succeed");
        let succeeded = call
            .clone()
            .result(call.result.clone().unwrap_or(Value::Null));
        out.push(edit(t, ti, Changed::Outcomes, change, |calls| {
            if let Some(c) = call_at_mut(calls, p) {
                *c = succeeded;
            }
        }));
        return;
    }
    let change = format!("made the call of {at} fail");
    let failed = call.clone().failed_with(
        ToolErrorKind::Execution,
        json!({"error": "mutated: the tool failed"}),
    );
    out.push(edit(t, ti, Changed::Outcomes, change, |calls| {
        if let Some(c) = call_at_mut(calls, p) {
            *c = failed;
        }
    }));
    let Some(result) = &call.result else { return };
    let (what, new) = match result {
        Value::Object(fields) => match fields.iter().min_by(|a, b| a.0.cmp(b.0)) {
            Some((k, v)) => {
                let mut fields = fields.clone();
                fields.insert(k.clone(), other_value(v));
                (format!("field `{k}` of the result"), Value::Object(fields))
            }
            None => return,
        },
        other => ("the result".to_owned(), other_value(other)),
    };
    let change = format!("changed {what} of {at}");
    out.push(edit(t, ti, Changed::Results, change, |calls| {
        if let Some(c) = call_at_mut(calls, p) {
            c.result = Some(new);
        }
    }));
}

/// A call moved to the next turn, out of its node, or into the first node of its turn.
fn moves(t: &Transcript, ti: usize, paths: &[Path], out: &mut Vec<Mutant>) {
    let Some(turn) = t.turns.get(ti) else { return };
    let calls = &turn.reply.calls;
    let n = ti + 1;
    for p in paths {
        let Some(call) = call_at(calls, p) else {
            continue;
        };
        if ti + 1 < t.turns.len() {
            let mut m = t.clone();
            if let Some(here) = m.turns.get_mut(ti) {
                remove(&mut here.reply.calls, p);
            }
            if let Some(next) = m.turns.get_mut(ti + 1) {
                next.reply.calls.insert(0, call.clone());
            }
            let change = format!("moved `{}` from turn {n} to turn {}", call.name, n + 1);
            out.push(Mutant::new(change, Changed::Calls, m));
        }
        match p.split_first() {
            // Inside a node: out of it, right after the node.
            Some((&top, rest)) if !rest.is_empty() => {
                let parent = p
                    .split_last()
                    .and_then(|(_, parent)| call_at(calls, parent))
                    .map_or_else(String::new, |c| c.name.clone());
                let change = format!("moved `{}` out of `{parent}` in turn {n}", call.name);
                let moved = call.clone();
                out.push(edit(t, ti, Changed::Calls, change, |calls| {
                    remove(calls, p);
                    calls.insert((top + 1).min(calls.len()), moved);
                }));
            }
            // At the top: into the turn's first node, when it has one.
            Some((&top, _)) => {
                let Some(node) = calls.iter().position(|c| c.kind == CallKind::Node) else {
                    continue;
                };
                let name = calls.get(node).map_or_else(String::new, |c| c.name.clone());
                let change = format!("moved `{}` into `{name}` in turn {n}", call.name);
                let moved = call.clone();
                out.push(edit(t, ti, Changed::Calls, change, |calls| {
                    if top >= calls.len() {
                        return;
                    }
                    calls.remove(top);
                    let node = if node > top { node - 1 } else { node };
                    if let Some(node) = calls.get_mut(node) {
                        node.children.push(moved);
                    }
                }));
            }
            None => {}
        }
    }
}

/// The reply: its last sentence dropped, its first number negated, swapped with the next
/// turn's, emptied.
fn replies(t: &Transcript, ti: usize, out: &mut Vec<Mutant>) {
    let Some(turn) = t.turns.get(ti) else { return };
    let text = &turn.reply.text;
    let n = ti + 1;
    let mut reply = |change: String, new: String| {
        if new != *text {
            let mut m = t.clone();
            if let Some(turn) = m.turns.get_mut(ti) {
                turn.reply.text = new;
            }
            out.push(Mutant::new(change, Changed::ReplyText, m));
        }
    };
    if let Some(cut) = without_last_sentence(text) {
        reply(format!("dropped the last sentence of reply {n}"), cut);
    }
    if let Some(negated) = negated_number(text) {
        reply(format!("negated the first number of reply {n}"), negated);
    }
    if let Some(next) = t.turns.get(ti + 1) {
        reply(
            format!("swapped replies {n} and {}", n + 1),
            next.reply.text.clone(),
        );
    }
    reply(format!("emptied reply {n}"), String::new());
}

/// Tokens, latency and cost raised far past any budget.
fn budgets(t: &Transcript, ti: usize, out: &mut Vec<Mutant>) {
    let raise = |v: Option<u64>| Some(v.unwrap_or(0).saturating_mul(10).saturating_add(100_000));
    let n = ti + 1;
    let mut m = t.clone();
    if let Some(turn) = m.turns.get_mut(ti) {
        let usage = turn.reply.usage.get_or_insert_with(Default::default);
        usage.input_tokens = raise(usage.input_tokens);
        usage.output_tokens = raise(usage.output_tokens);
        usage.total_tokens = raise(usage.total_tokens);
    }
    out.push(Mutant::new(
        format!("raised the tokens of turn {n}"),
        Changed::Usage,
        m,
    ));
    let mut m = t.clone();
    if let Some(turn) = m.turns.get_mut(ti) {
        turn.latency_ms = raise(turn.latency_ms.or(turn.reply.latency_ms));
        turn.reply.latency_ms = turn.latency_ms;
    }
    out.push(Mutant::new(
        format!("raised the latency of turn {n}"),
        Changed::Latency,
        m,
    ));
    if let Some(Cost::Usd(usd)) = t.turns.get(ti).and_then(|turn| turn.cost.as_ref()) {
        let mut m = t.clone();
        if let Some(turn) = m.turns.get_mut(ti) {
            turn.cost = Some(Cost::Usd(usd * 1000.0 + 100.0));
        }
        out.push(Mutant::new(
            format!("raised the cost of turn {n}"),
            Changed::Cost,
            m,
        ));
    }
}

/// The paths of the tool calls of a call tree, depth first, in order.
fn tool_paths(calls: &[Call]) -> Vec<Path> {
    fn walk(calls: &[Call], prefix: &[usize], out: &mut Vec<Path>) {
        for (i, c) in calls.iter().enumerate() {
            let mut p = prefix.to_vec();
            p.push(i);
            if c.kind == CallKind::Tool {
                out.push(p.clone());
            }
            walk(&c.children, &p, out);
        }
    }
    let mut out = Vec::new();
    walk(calls, &[], &mut out);
    out
}

fn call_at<'c>(calls: &'c [Call], p: &[usize]) -> Option<&'c Call> {
    let (first, rest) = p.split_first()?;
    rest.iter()
        .try_fold(calls.get(*first)?, |c, &i| c.children.get(i))
}

fn call_at_mut<'c>(calls: &'c mut [Call], p: &[usize]) -> Option<&'c mut Call> {
    let (first, rest) = p.split_first()?;
    rest.iter()
        .try_fold(calls.get_mut(*first)?, |c, &i| c.children.get_mut(i))
}

/// The list a path's last place is in.
fn siblings<'c>(calls: &'c mut Vec<Call>, p: &[usize]) -> Option<&'c mut Vec<Call>> {
    match p.split_last() {
        Some((_, [])) => Some(calls),
        Some((_, parent)) => call_at_mut(calls, parent).map(|c| &mut c.children),
        None => None,
    }
}

fn remove(calls: &mut Vec<Call>, p: &[usize]) {
    if let (Some(&last), Some(list)) = (p.last(), siblings(calls, p))
        && last < list.len()
    {
        list.remove(last);
    }
}

fn insert(calls: &mut Vec<Call>, p: &[usize], call: Call) {
    if let (Some(&last), Some(list)) = (p.last(), siblings(calls, p)) {
        let at = (last + 1).min(list.len());
        list.insert(at, call);
    }
}

/// A different value of the same type.
fn other_value(v: &Value) -> Value {
    match v {
        Value::String(s) if s.is_empty() => json!("mutated"),
        Value::String(s) => json!(format!("{s}-mutated")),
        Value::Number(n) => match n.as_i64() {
            Some(i) => json!(i.wrapping_add(1)),
            None => json!(n.as_f64().unwrap_or(0.0) + 1.0),
        },
        Value::Bool(b) => json!(!b),
        Value::Null => json!("mutated"),
        Value::Array(items) if items.is_empty() => json!(["mutated"]),
        Value::Array(items) => Value::Array(items.iter().skip(1).cloned().collect()),
        Value::Object(_) => json!({}),
    }
}

/// The value as another type: a string as a number, anything else as its text.
fn other_type(v: &Value) -> Value {
    match v {
        Value::String(s) => s.parse::<f64>().map_or(json!(0), |f| json!(f)),
        other => json!(other.to_string()),
    }
}

/// The text without its last sentence, when it has more than one.
fn without_last_sentence(text: &str) -> Option<String> {
    let trimmed = text.trim_end();
    let body = trimmed.trim_end_matches(['.', '!', '?']);
    let end = body.rfind(['.', '!', '?'])?;
    trimmed.get(..=end).map(str::to_owned)
}

/// The text with its first number negated (`42` → `-42`, `-3` → `3`, `0` → `1`).
fn negated_number(text: &str) -> Option<String> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let (before, from) = (text.get(..start)?, text.get(start..)?);
    let len = from
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(from.len());
    let digits = from.get(..len)?.trim_end_matches('.');
    let after = from.get(digits.len()..)?;
    let number = if digits.chars().all(|c| c == '0' || c == '.') {
        format!("{before}1")
    } else if let Some(unsigned) = before.strip_suffix('-') {
        format!("{unsigned}{digits}")
    } else {
        format!("{before}-{digits}")
    };
    Some(format!("{number}{after}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_cut_and_negated_at_their_first_place() {
        assert_eq!(
            without_last_sentence("Refund sent. It takes 5 days.").as_deref(),
            Some("Refund sent.")
        );
        assert_eq!(without_last_sentence("One sentence only."), None);
        assert_eq!(
            negated_number("Refunded 42.50 EUR, order 7").as_deref(),
            Some("Refunded -42.50 EUR, order 7")
        );
        assert_eq!(
            negated_number("It is -3 degrees").as_deref(),
            Some("It is 3 degrees")
        );
        assert_eq!(negated_number("0 left").as_deref(), Some("1 left"));
        assert_eq!(negated_number("no numbers"), None);
    }
}
