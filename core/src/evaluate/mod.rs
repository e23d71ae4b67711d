//! Evaluation: (transcript, expectations) → verdicts, with dependencies between checks. Its
//! [`context`] is the view of the transcript the checks read, which is why the checks sit
//! between the two: they read the context, the evaluation runs them.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

pub mod context;

use crate::check::{Check, Expectation, Outcome, Scope, Severity, Status};
use crate::model::Transcript;
use crate::model::Verdict;
use crate::model::judgement::Judgements;
use crate::model::turn_number;
use context::{EvalContext, TranscriptIndex};

/// Evaluates every expectation against a transcript and returns one verdict per expectation,
/// in the same order.
///
/// Each expectation sees its scope (one turn, or the whole conversation). An expectation whose
/// `depends_on` names a check that did not pass is *skipped*; an unknown id or a dependency
/// cycle gives an *error* verdict. Checks on a turn the agent failed give an error verdict
/// naming the agent's failure, and every check of a transcript with no turn at all is an error
/// ("no turn ran"): with nothing to see, not even an absence check may pass. Work shared by
/// checks (flattening call trees, joining texts) is done once per transcript.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello"), 1)]);
/// let v = evaluate(&t, &[
///     tool("search").id("searched"),
///     reply().contains("hotel").depends_on("searched"),
/// ]);
/// assert_eq!(v[0].status, Status::Fail);
/// assert_eq!(v[1].status, Status::Skipped);
/// assert_eq!(v[1].reason, "skipped: depends on `searched`, which failed");
/// ```
pub fn evaluate(transcript: &Transcript, expectations: &[Expectation]) -> Vec<Verdict> {
    evaluate_with(transcript, expectations, None, None)
}

/// [`evaluate`] with the judge's grades for the judge checks, and the checks' labels when they
/// were worked out once for many transcripts (else each verdict's label is made anew).
#[doc(hidden)]
pub fn evaluate_with(
    transcript: &Transcript,
    expectations: &[Expectation],
    judgements: Option<&Judgements>,
    labels: Option<&[String]>,
) -> Vec<Verdict> {
    let index = TranscriptIndex::new(transcript).with_judgements(judgements);
    evaluate_on(&index, expectations, labels)
}

/// Which check owns each id: the first that declares it.
pub(crate) fn id_owners(expectations: &[Expectation]) -> HashMap<&str, usize> {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    for (i, e) in expectations.iter().enumerate() {
        if let Some(id) = &e.id {
            ids.entry(id.as_str()).or_insert(i);
        }
    }
    ids
}

/// [`evaluate`] on a prepared index (with its judgements, if any).
pub(crate) fn evaluate_on<'a>(
    index: &'a TranscriptIndex<'a>,
    expectations: &'a [Expectation],
    labels: Option<&[String]>,
) -> Vec<Verdict> {
    let mut evaluator = Walk::new(index, expectations, None);
    evaluator.all();
    verdicts(evaluator.outcomes, expectations, labels)
}

/// A judged evaluation's first phase: every check evaluated but those that need the judge
/// (by `defer`) and those depending on them, through any chain. The judge is asked only for
/// what is left open ([`BeforeJudge::awaits_judge`]), and [`BeforeJudge::finish`] evaluates
/// just those once its grades are in: each check is evaluated once, along one walk of the
/// dependency graph.
#[doc(hidden)]
pub fn before_judge<'a>(
    index: &'a TranscriptIndex<'a>,
    expectations: &'a [Expectation],
    defer: &'a dyn Fn(&Check) -> bool,
) -> BeforeJudge {
    let mut evaluator = Walk::new(index, expectations, Some(defer));
    evaluator.all();
    BeforeJudge {
        outcomes: evaluator.outcomes,
        deferred: evaluator.deferred,
    }
}

/// The outcomes of a judged evaluation's first phase (see [`before_judge`]).
#[doc(hidden)]
pub struct BeforeJudge {
    outcomes: Vec<Option<Outcome>>,
    deferred: Vec<bool>,
}

impl BeforeJudge {
    /// Whether check `i` waits for the judge: it needs the judge and every check it depends
    /// on passed or waits too.
    #[doc(hidden)]
    pub fn awaits_judge(&self, i: usize) -> bool {
        self.deferred.get(i).copied().unwrap_or(false)
    }

    /// Every verdict, the checks that waited evaluated on `judged` (the index with the
    /// judge's grades); the others keep their outcomes.
    #[doc(hidden)]
    pub fn finish<'a>(
        self,
        judged: &'a TranscriptIndex<'a>,
        expectations: &'a [Expectation],
        labels: Option<&[String]>,
    ) -> Vec<Verdict> {
        let mut evaluator = Walk::new(judged, expectations, None);
        evaluator.outcomes = self.outcomes;
        evaluator.all();
        verdicts(evaluator.outcomes, expectations, labels)
    }
}

/// An expectation's verdict from its outcome, under `label`.
#[doc(hidden)]
pub fn verdict(e: &Expectation, o: Outcome, label: String) -> Verdict {
    Verdict {
        label,
        check: Cow::Borrowed(e.check.kind()),
        scope: e.scope,
        severity: e.severity,
        id: e.id.clone(),
        status: o.status,
        reason: o.reason,
        details: o.details,
    }
}

/// One verdict per expectation, from its outcome.
fn verdicts(
    outcomes: Vec<Option<Outcome>>,
    expectations: &[Expectation],
    labels: Option<&[String]>,
) -> Vec<Verdict> {
    outcomes
        .into_iter()
        .zip(expectations)
        .enumerate()
        .map(|(i, (o, e))| {
            let o = o.unwrap_or_else(|| Outcome::error("not evaluated"));
            let label = match labels.and_then(|l| l.get(i)) {
                Some(l) => l.clone(),
                None => e.display_label(),
            };
            verdict(e, o, label)
        })
        .collect()
}

/// One error verdict per turn on which the agent failed (an error, a timeout, a panic), so a
/// failure is reported even when no check looks at that turn.
#[doc(hidden)]
pub fn turn_failures(transcript: &Transcript) -> Vec<Verdict> {
    transcript
        .turns
        .iter()
        .filter_map(|t| {
            let error = t.error.as_ref()?;
            Some(Verdict {
                label: "agent answered".to_owned(),
                check: Cow::Borrowed("agent"),
                scope: Scope::Turn(t.index),
                severity: Severity::Error,
                id: None,
                status: Status::Error,
                reason: format!("the agent failed: {error}"),
                details: Default::default(),
            })
        })
        .collect()
}

/// What a check does next in the walk of the dependency graph (see [`Walk::step`]).
enum Visit {
    Wait(usize),
    Next,
    Done(Outcome),
    /// The check waits for the judge (see [`before_judge`]).
    Defer,
}

/// One walk of the dependency graph: each check evaluated once, after what it depends on.
struct Walk<'a> {
    transcript: &'a Transcript,
    index: &'a TranscriptIndex<'a>,
    expectations: &'a [Expectation],
    ids: HashMap<&'a str, usize>,
    outcomes: Vec<Option<Outcome>>,
    /// The checks on the stack of [`Walk::outcome`].
    visiting: HashSet<usize>,
    /// Which checks wait for the judge, in a judged evaluation's first phase.
    defer: Option<&'a dyn Fn(&Check) -> bool>,
    /// The checks that wait for the judge, and those depending on one that does.
    deferred: Vec<bool>,
}

impl<'a> Walk<'a> {
    fn new(
        index: &'a TranscriptIndex<'a>,
        expectations: &'a [Expectation],
        defer: Option<&'a dyn Fn(&Check) -> bool>,
    ) -> Self {
        Walk {
            transcript: index.transcript(),
            index,
            expectations,
            ids: id_owners(expectations),
            outcomes: vec![None; expectations.len()],
            visiting: HashSet::new(),
            defer,
            deferred: vec![false; expectations.len()],
        }
    }

    /// Evaluates every check not evaluated yet.
    fn all(&mut self) {
        for i in 0..self.expectations.len() {
            self.outcome(i);
        }
    }

    /// Evaluates check `root` and, first, the checks it depends on, through any chain.
    ///
    /// Depth first with an explicit stack rather than by recursion, so that a chain of
    /// thousands of `depends_on` (a scenario file can hold one) cannot exhaust the stack. Each
    /// frame is a check and the index of the dependency it looks at next; a check is on the
    /// stack exactly while it is `visiting`, so a dependency that is visiting is a cycle.
    fn outcome(&mut self, root: usize) {
        // Only a check not evaluated (nor deferred) yet.
        if !matches!(self.outcomes.get(root), Some(None)) || self.deferred(root) {
            return;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        self.visiting.insert(root);
        while let Some(&(i, next)) = stack.last() {
            let step = self.step(i, next);
            match step {
                Visit::Wait(d) => {
                    self.visiting.insert(d);
                    stack.push((d, 0));
                }
                Visit::Next => {
                    if let Some(top) = stack.last_mut() {
                        top.1 = next.saturating_add(1);
                    }
                }
                Visit::Done(outcome) => {
                    if let Some(slot) = self.outcomes.get_mut(i) {
                        *slot = Some(outcome);
                    }
                    self.visiting.remove(&i);
                    stack.pop();
                }
                Visit::Defer => {
                    if let Some(slot) = self.deferred.get_mut(i) {
                        *slot = true;
                    }
                    self.visiting.remove(&i);
                    stack.pop();
                }
            }
        }
    }

    fn deferred(&self, i: usize) -> bool {
        self.deferred.get(i).copied().unwrap_or(false)
    }

    /// What check `i` does with its dependency number `next`: wait for it to be evaluated,
    /// go on to the next one, or conclude (skipped, an error, or its own outcome once every
    /// dependency passed).
    fn step(&self, i: usize, next: usize) -> Visit {
        let Some(e) = self.expectations.get(i) else {
            return Visit::Done(Outcome::error("not evaluated: no such check"));
        };
        if next == 0
            && e.id
                .as_deref()
                .is_some_and(|id| self.ids.get(id) != Some(&i))
        {
            return Visit::Done(Outcome::error(format!(
                "duplicate id `{}`: another check already uses it",
                e.id.as_deref().unwrap_or_default()
            )));
        }
        let Some(dep) = e.depends_on.get(next) else {
            return self.own_outcome(e);
        };
        let Some(&d) = self.ids.get(dep.as_str()) else {
            return Visit::Done(Outcome::error(format!("depends on unknown id `{dep}`")));
        };
        if self.visiting.contains(&d) {
            return Visit::Done(Outcome::error(format!("dependency cycle through `{dep}`")));
        }
        if self.deferred(d) {
            // Its status is known only once the judge has graded: so is this one's.
            return Visit::Defer;
        }
        let outcome = match self.outcomes.get(d) {
            Some(Some(outcome)) => outcome,
            Some(None) => return Visit::Wait(d),
            None => return Visit::Done(Outcome::error(format!("depends on unknown id `{dep}`"))),
        };
        match outcome.status {
            Status::Pass => Visit::Next,
            Status::Fail => Visit::Done(Outcome::skipped(format!(
                "skipped: depends on `{dep}`, which failed"
            ))),
            Status::Skipped => Visit::Done(Outcome::skipped(format!(
                "skipped: depends on `{dep}`, which was skipped"
            ))),
            Status::Error => Visit::Done(Outcome::skipped(format!(
                "skipped: depends on `{dep}`, which could not be evaluated"
            ))),
        }
    }

    /// The check's own outcome, its dependencies having passed.
    fn own_outcome(&self, e: &Expectation) -> Visit {
        match self.early_outcome(e) {
            Some(outcome) => Visit::Done(outcome),
            None if self.defer.is_some_and(|defer| defer(&e.check)) => Visit::Defer,
            None => Visit::Done(self.checked_outcome(e)),
        }
    }

    /// The error a check gets whatever its own evaluation would say: a constraint it can never
    /// meet, no turn to see, a failed turn, a gap in what it reads.
    fn early_outcome(&self, e: &Expectation) -> Option<Outcome> {
        // A check that can never pass says so whatever the transcript holds.
        if let Some(problem) = e.check.problem() {
            return Some(Outcome::error(format!("impossible constraint: {problem}")));
        }
        // Nothing ran: no check has anything to see, absence checks (`no_tools()`, ...)
        // included, so none may pass.
        if e.scope == Scope::Conversation && self.transcript.turns.is_empty() {
            return Some(Outcome::error("no turn ran"));
        }
        if let Scope::Turn(t) | Scope::UpTo(t) = e.scope {
            match self.transcript.turns.get(t) {
                None => {
                    return Some(Outcome::error(format!(
                        "turn {} did not run",
                        turn_number(t)
                    )));
                }
                Some(turn) => {
                    if let Some(err) = &turn.error {
                        return Some(Outcome::error(format!(
                            "not evaluated: the agent failed on turn {}: {err}",
                            turn_number(t)
                        )));
                    }
                }
            }
        }
        let cx = EvalContext::new(self.index, e.scope);
        // What the check reads is known to be incomplete on a turn it sees: no verdict on
        // what was read could be trusted either way.
        let reads = e.check.reads();
        let (t, gap) = cx.turns().iter().find_map(|t| {
            t.reply
                .gaps
                .iter()
                .find(|g| reads.contains(&g.part))
                .map(|g| (t, g))
        })?;
        Some(Outcome::error(format!(
            "not evaluated: on turn {}, {gap}",
            turn_number(t.index)
        )))
    }

    /// The check's own evaluation, nothing standing in its way.
    fn checked_outcome(&self, e: &Expectation) -> Outcome {
        let cx = EvalContext::new(self.index, e.scope);
        let outcome = e.check.evaluate_possible(&cx);
        // A verdict that calls nobody saw could overturn is not measured: a pass resting on
        // an absence, or a failure that a call not seen might answer, over a turn read from
        // spans that may be calls and were not understood.
        let unseen = e.check.unseen_calls();
        let stands = match outcome.status {
            Status::Pass => unseen.pass_stands,
            Status::Fail => unseen.fail_stands,
            Status::Skipped | Status::Error => true,
        };
        if !stands
            && let Some((t, spans)) = cx.turns().iter().find_map(|t| {
                t.reply
                    .spans
                    .as_ref()
                    .filter(|s| s.may_hide_calls())
                    .map(|s| (t, s))
            })
        {
            let verdict = if outcome.status == Status::Pass {
                "a pass"
            } else {
                "a failure"
            };
            return Outcome::error(format!(
                "not measured: on turn {}, {} — {verdict} here could rest on calls not seen",
                turn_number(t.index),
                spans.possible_calls()
            ));
        }
        // A pass that rests on something not having happened cannot be confirmed over a turn
        // on which the agent failed: what it would have done there is unknown.
        if outcome.status == Status::Pass
            && e.check.claims_absence()
            && let Some(t) = cx.turns().iter().find(|t| t.error.is_some())
        {
            return Outcome::error(format!(
                "cannot confirm an absence: the agent failed on turn {}: {}",
                turn_number(t.index),
                t.error.as_deref().unwrap_or_default()
            ));
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use crate::check::{Check, Status};
    use crate::model::Transcript;
    use crate::model::scope::Scope;

    /// With no turn, every sample of every check kind is an error: nothing ran, so nothing may
    /// pass, absence checks included (each kind declares its samples in its own file, so a
    /// new kind cannot be left out).
    #[test]
    fn with_no_turn_every_kind_is_an_error() {
        let nothing = Transcript::new(vec![]);
        for mut e in Check::samples() {
            e.scope = Scope::Conversation;
            e.depends_on.clear();
            let kind = e.check.kind();
            let v = super::evaluate(&nothing, &[e]).remove(0);
            assert_eq!(
                (v.status, v.reason.as_str()),
                (Status::Error, "no turn ran"),
                "{kind}"
            );
        }
    }
}
