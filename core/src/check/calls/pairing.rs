//! Pairing what a check expects with the calls made — the one engine of the checks on calls'
//! names and order (trajectory, tool sequence, tool set, no tools): the calls in scope with
//! their places, the pairings (in order, or one to one), the model steps calls were made in,
//! and the violations and texts that explain a call a check did not want or an expected call
//! it did not find.

use std::ops::Range;

use serde_json::Value;

use crate::check::Violation;
use crate::evaluate::context::EvalContext;
use crate::model::Call;

/// The tool calls in scope with their places, without failed calls when `succeeded`.
pub(in crate::check) fn counted_calls<'a>(
    cx: &EvalContext<'a>,
    succeeded: bool,
) -> Vec<(usize, &'a Call)> {
    cx.tool_calls()
        .iter()
        .enumerate()
        .filter(|(_, c)| !(succeeded && c.error))
        .map(|(i, c)| (i, *c))
        .collect()
}

/// The called tool names, in call order, as JSON.
pub(in crate::check) fn called_names(calls: &[(usize, &Call)]) -> Value {
    Value::Array(
        calls
            .iter()
            .map(|(_, c)| Value::String(c.name.clone()))
            .collect(),
    )
}

/// The called tool names in call order as a message shows them: `a → b`, or `no calls`.
pub(in crate::check) fn names_in_order<'c>(calls: impl IntoIterator<Item = &'c Call>) -> String {
    let names: Vec<&str> = calls.into_iter().map(|c| c.name.as_str()).collect();
    if names.is_empty() {
        "no calls".to_owned()
    } else {
        names.join(" → ")
    }
}

/// What a description adds for a check counting only calls that succeeded.
pub(in crate::check) fn successful_only(succeeded: bool) -> &'static str {
    if succeeded {
        " (successful calls only)"
    } else {
        ""
    }
}

/// Each of `expected` elements paired, in order, with the first call after the previous
/// element's partner that `fits` it (`None`: none left; the next element searches from the same
/// place). `fits(i, j)`: expected element `i` fits call `j`.
pub(in crate::check) fn in_order(
    expected: usize,
    calls: usize,
    fits: impl Fn(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    let mut cursor = 0;
    (0..expected)
        .map(|i| {
            let found = (cursor..calls).find(|&j| fits(i, j));
            if let Some(j) = found {
                cursor = j + 1;
            }
            found
        })
        .collect()
}

/// Each of `expected` elements paired one to one with a call it `fits`, as many as can be.
pub(in crate::check) fn one_to_one(
    expected: usize,
    calls: usize,
    fits: impl Fn(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    crate::compare::assign::assign(expected, calls, fits)
}

/// The calls (of `calls`) no expected element is paired with.
pub(in crate::check) fn unpaired(pairing: &[Option<usize>], calls: usize) -> Vec<usize> {
    (0..calls)
        .filter(|j| !pairing.contains(&Some(*j)))
        .collect()
}

/// A violation about the call at `place` among the tool calls in scope: in its turn, with
/// `evidence`.
pub(in crate::check) fn call_violation(
    cx: &EvalContext<'_>,
    kind: &str,
    message: String,
    place: usize,
    evidence: Value,
) -> Violation {
    Violation::new(kind, message)
        .in_turn(cx.turn_of_call(place))
        .evidence(evidence)
}

/// The model steps of a sequence of calls, as ranges: a call starts a new step unless it is
/// `parallel` to the one before it.
pub(in crate::check) fn steps_of(parallel: impl Iterator<Item = bool>) -> Vec<Range<usize>> {
    let mut steps: Vec<Range<usize>> = Vec::new();
    for (i, with_previous) in parallel.enumerate() {
        match steps.last_mut() {
            Some(last) if with_previous => last.end = i + 1,
            _ => steps.push(i..i + 1),
        }
    }
    steps
}

/// The model steps of the calls made (with their places): consecutive calls of one turn with
/// the same known step are one step; a call without one is a step of its own.
pub(in crate::check) fn steps_made(
    calls: &[(usize, &Call)],
    cx: &EvalContext<'_>,
) -> Vec<Range<usize>> {
    let mut previous: Option<(&Call, usize)> = None;
    steps_of(calls.iter().map(|&(place, call)| {
        let with_previous = previous.is_some_and(|(before, place_before)| {
            call.step.is_some()
                && call.step == before.step
                && cx.turn_of_call(place) == cx.turn_of_call(place_before)
        });
        previous = Some((call, place));
        with_previous
    }))
}

/// `1 call`, `2 calls`.
pub(in crate::check) fn calls_noun(n: usize) -> String {
    if n == 1 {
        "1 call".to_owned()
    } else {
        format!("{n} calls")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_order_pairs_each_element_after_the_previous_partner() {
        let calls = ["a", "b", "a", "c"];
        let expected = ["a", "a", "d", "c"];
        let fits = |i: usize, j: usize| expected[i] == calls[j];
        // `d` is never found; `c` is still searched for after the second `a`.
        assert_eq!(
            in_order(expected.len(), calls.len(), fits),
            [Some(0), Some(2), None, Some(3)]
        );
        // Out of order: `b` before `a` pairs `b` only.
        let expected = ["b", "a", "b"];
        let fits = |i: usize, j: usize| expected[i] == calls[j];
        assert_eq!(in_order(3, 4, fits), [Some(1), Some(2), None]);
    }

    #[test]
    fn one_to_one_and_the_unpaired_calls() {
        let calls = ["a", "b", "a"];
        let expected = ["a", "a"];
        let pairing = one_to_one(2, 3, |i, j| expected[i] == calls[j]);
        assert_eq!(pairing.iter().flatten().count(), 2);
        assert_eq!(unpaired(&pairing, 3), [1]);
        assert_eq!(unpaired(&[None, None], 2), [0, 1]);
    }

    #[test]
    fn steps_of_joins_parallel_calls() {
        assert_eq!(steps_of([false, true, false].into_iter()), [0..2, 2..3]);
        assert!(steps_of(std::iter::empty()).is_empty());
        assert_eq!(calls_noun(1), "1 call");
        assert_eq!(calls_noun(0), "0 calls");
    }
}
