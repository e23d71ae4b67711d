//! Mutation testing of a suite: how much broken behaviour its checks would notice.
//!
//! A green suite says the agent passed the checks, not that the checks would have noticed a
//! broken agent. [`mutate`] takes a transcript the scenario passes on (a recording, a report's
//! transcript), makes its **mutants** — the transcript as a broken agent could have produced it:
//! a call dropped, duplicated, swapped with the next, moved to the next turn or into or out of
//! a sub-agent node; an argument changed, retyped or dropped; a successful call failed and a
//! failed one successful; a field of a result changed; a reply's last sentence dropped, its
//! first number negated, swapped with the next reply or emptied; tokens, latency and cost
//! raised past any budget; a turn dropped — and evaluates the scenario's checks on each. A
//! mutant is:
//!
//! - **killed** when some check fails on it that passed on the transcript;
//! - **needs the judge** when no check fails but a judge check (or semantic matcher) would
//!   grade something its judge has not graded before: mutants are graded from the judge's
//!   cache only (see [`mutate_judged`]), so a mutant that changes what the judge reads is
//!   counted apart rather than sent to a live judge, unless asked;
//! - **errored** when no check fails but one that reads what it changed could not be
//!   evaluated (a judge check with no judge): reported apart, not counted;
//! - **equivalent** when it only blows a budget (tokens, latency, cost) the scenario does not
//!   set: nothing any check reads changed, and a suite may rightly not care; reported, not
//!   counted;
//! - **survived** otherwise: a broken agent the suite would have passed — a dropped call that
//!   no check reads survives too (listed with the checks that read what it changed: none).
//!
//! The **score** is killed / (killed + survived). Mutants are made in a fixed order and named
//! by what they changed, so two runs give the same list and can be compared.
//!
//! ```
//! use agent_test::prelude::*;
//! use agent_test::model::{Call, Reply, Transcript, Turn};
//! use agent_test::mutate::{Fate, mutate};
//!
//! let t = Transcript::new(vec![Turn::new(0, "refund ORD-1", Reply::text("Refund sent.")
//!     .call(Call::tool("lookup_order", json!({"id": "ORD-1"})).result(json!({"total": 42})))
//!     .call(Call::tool("refund", json!({"id": "ORD-1"})).result(json!("ok"))), 120)]);
//! let weak = mutate(&t, &[reply().contains("Refund").into_expectation()]).unwrap();
//! let strong = mutate(&t, &[
//!     tool("refund").arg("id", "ORD-1").succeeded().into_expectation(),
//!     tool_sequence(["lookup_order", "refund"]).into_expectation(),
//!     reply().contains("Refund").into_expectation(),
//! ]).unwrap();
//! assert!(strong.score().unwrap() > weak.score().unwrap());
//! let dropped = strong.mutants.iter().find(|m| m.change == "dropped the call of turn 1, `refund`").unwrap();
//! assert!(matches!(dropped.fate, Fate::Killed { .. }));
//! ```

mod operators;

use serde::{Deserialize, Serialize};

use agent_test_core::check::{Check, Expectation, Status};
use agent_test_core::model::{Part, Transcript, Verdict};
use agent_test_network::judge::Judge;

/// What a mutant changed: which part of the transcript checks read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Changed {
    /// Which tools were called, how often, in which order, in which turn or node.
    Calls,
    /// A call's arguments.
    Arguments,
    /// A call's result.
    Results,
    /// Whether a call succeeded.
    Outcomes,
    /// A reply's text.
    ReplyText,
    /// Token usage.
    Usage,
    /// A turn's latency.
    Latency,
    /// A turn's cost.
    Cost,
    /// Whole turns.
    Turns,
}

/// One mutant: the transcript as a broken agent could have produced it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutant {
    /// What it changed, as a sentence: "swapped `search` and `book` in turn 1".
    pub change: String,
    /// Which part of the transcript.
    pub changed: Changed,
    /// The mutated transcript.
    pub transcript: Transcript,
}

impl Mutant {
    fn new(change: String, changed: Changed, transcript: Transcript) -> Self {
        Mutant {
            change,
            changed,
            transcript,
        }
    }
}

/// Every mutant of a transcript, in a fixed order (see the [module](self) docs).
///
/// ```
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// use agent_test::mutate::mutants;
/// use serde_json::json;
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello.").call(Call::tool("greet", json!({}))), 5)]);
/// let changes: Vec<String> = mutants(&t).into_iter().map(|m| m.change).collect();
/// assert!(changes.contains(&"dropped the call of turn 1, `greet`".to_owned()));
/// assert!(changes.contains(&"emptied reply 1".to_owned()));
/// ```
pub fn mutants(transcript: &Transcript) -> Vec<Mutant> {
    operators::all(transcript)
}

/// What became of a mutant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "fate", rename_all = "snake_case")]
pub enum Fate {
    /// Some check failed on it: the labels of the checks that noticed.
    Killed {
        /// The checks that failed.
        by: Vec<String>,
    },
    /// Every check still passed: the labels of the checks that read what it changed (none of
    /// them noticed; none at all when no check reads it).
    Survived {
        /// The checks that read the changed part.
        readers: Vec<String>,
    },
    /// It only blows a budget the scenario does not set.
    Equivalent,
    /// No check failed, and some could not be evaluated: the labels and why.
    Errored {
        /// The checks that could not be evaluated, each with its reason.
        by: Vec<String>,
    },
    /// No check failed, and a judge check would grade what its judge has not graded before
    /// (nothing cached for it): the labels of those checks.
    NeedsJudge {
        /// The checks the judge would have to grade.
        by: Vec<String>,
    },
}

/// One mutant's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MutantOutcome {
    /// What it changed.
    pub change: String,
    /// Which part of the transcript.
    pub changed: Changed,
    /// What became of it.
    #[serde(flatten)]
    pub fate: Fate,
}

/// The mutants of one transcript under one scenario's checks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Mutation {
    /// Each mutant's outcome, in the order they were made.
    pub mutants: Vec<MutantOutcome>,
}

impl Mutation {
    /// How many mutants met `fate`'s kind.
    fn count(&self, kind: fn(&Fate) -> bool) -> usize {
        self.mutants.iter().filter(|m| kind(&m.fate)).count()
    }

    /// Mutants some check noticed.
    ///
    /// See the [module](self) example.
    pub fn killed(&self) -> usize {
        self.count(|f| matches!(f, Fate::Killed { .. }))
    }

    /// Mutants every check passed.
    ///
    /// See the [module](self) example.
    pub fn survived(&self) -> usize {
        self.count(|f| matches!(f, Fate::Survived { .. }))
    }

    /// Mutants that change nothing a check reads.
    ///
    /// See the [module](self) example.
    pub fn equivalent(&self) -> usize {
        self.count(|f| matches!(f, Fate::Equivalent))
    }

    /// Mutants some check could not be evaluated on (and none failed).
    ///
    /// See the [module](self) example.
    pub fn errored(&self) -> usize {
        self.count(|f| matches!(f, Fate::Errored { .. }))
    }

    /// Mutants only a live judge could decide (see [`Fate::NeedsJudge`]).
    ///
    /// See [`mutate_judged`].
    pub fn needs_judge(&self) -> usize {
        self.count(|f| matches!(f, Fate::NeedsJudge { .. }))
    }

    /// killed / (killed + survived); `None` when no mutant was either (nothing was measured).
    ///
    /// See the [module](self) example.
    pub fn score(&self) -> Option<f64> {
        let (k, s) = (self.killed(), self.survived());
        #[allow(clippy::cast_precision_loss)]
        (k + s > 0).then(|| k as f64 / (k + s) as f64)
    }
}

/// Makes the mutants of `transcript` and evaluates `expectations` on each. The transcript
/// must pass them: mutants of a run that already fails measure nothing, and that is an error
/// naming the checks that fail. Judge checks are errors here (no judge): see
/// [`mutate_judged`].
///
/// See the [module](self) example.
pub fn mutate(transcript: &Transcript, expectations: &[Expectation]) -> Result<Mutation, String> {
    mutate_on(&Run::new(transcript, expectations), true)
}

/// [`mutate`], with judge checks and semantic matchers graded by `judge` for repeat `repeat`
/// (the index its cache keys carry; 0 for an unrepeated run). Give it a
/// [`cache_only`](Judge::cache_only) judge — or [`Judge::cached`] with the model a report
/// names — and a mutant whose judged material is unchanged reuses the run's verdicts, while
/// one that changes it [needs the judge](Fate::NeedsJudge) and costs nothing; give it a live
/// judge to have those graded too (one request per such mutant).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::judge::Judge;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// use agent_test::mutate::mutate_judged;
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello there.")
///     .call(Call::tool("greet", json!({}))), 5)]);
/// let cached = Judge::cached("nobody").cache_dir(std::env::temp_dir().join("no-judge-cache"));
/// let m = mutate_judged(&t, &[judge("is friendly").into_expectation()], &cached, 0).unwrap();
/// // Nothing was cached: the mutants need the judge, and none counts as survived.
/// assert!(m.needs_judge() > 0);
/// assert_eq!(m.survived(), 0);
/// ```
pub fn mutate_judged(
    transcript: &Transcript,
    expectations: &[Expectation],
    judge: &Judge,
    repeat: usize,
) -> Result<Mutation, String> {
    mutate_on(
        &Run::new(transcript, expectations).judged(judge, repeat),
        true,
    )
}

/// One run to mutate: a transcript, its scenario's checks and, for judge checks, the judge
/// and the repeat index (see [`mutate_judged`]).
///
/// See [`mutate_many`].
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    transcript: &'a Transcript,
    expectations: &'a [Expectation],
    judge: Option<(&'a Judge, usize)>,
}

impl<'a> Run<'a> {
    /// A run whose judge checks are errors (no judge).
    ///
    /// See [`mutate_many`].
    pub fn new(transcript: &'a Transcript, expectations: &'a [Expectation]) -> Self {
        Run {
            transcript,
            expectations,
            judge: None,
        }
    }

    /// The run's judge checks graded by `judge` for repeat `repeat` (see [`mutate_judged`]).
    ///
    /// See [`mutate_many`].
    pub fn judged(mut self, judge: &'a Judge, repeat: usize) -> Self {
        self.judge = Some((judge, repeat));
        self
    }
}

/// [`mutate`] of many runs at once: the runs are shared out among the cores (the way a suite
/// is mutated: many small transcripts), and the results come back in their order.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::model::{Reply, Transcript, Turn};
/// use agent_test::mutate::{Run, mutate_many};
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello there. How can I help?"), 5)]);
/// let (greets, quiet) = ([reply().contains("Hello").into_expectation()], [no_tools().into_expectation()]);
/// let all = mutate_many(&[Run::new(&t, &greets), Run::new(&t, &quiet)]);
/// assert_eq!(all.len(), 2);
/// assert!(all[0].as_ref().unwrap().killed() > 0);
/// ```
pub fn mutate_many(runs: &[Run<'_>]) -> Vec<Result<Mutation, String>> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = cores.min(runs.len()).max(1);
    if threads == 1 {
        return runs.iter().map(|r| mutate_on(r, true)).collect();
    }
    let per_thread = runs.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .chunks(per_thread)
            .map(|part| {
                let handle =
                    scope.spawn(|| part.iter().map(|r| mutate_on(r, false)).collect::<Vec<_>>());
                (part.len(), handle)
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|(n, handle)| {
                handle.join().unwrap_or_else(|_| {
                    vec![
                        Err("a check panicked while the run's mutants were evaluated".to_owned());
                        n
                    ]
                })
            })
            .collect()
    })
}

/// [`mutate`] of a run, its mutants evaluated on every core when `parallel`.
fn mutate_on(run: &Run<'_>, parallel: bool) -> Result<Mutation, String> {
    let expectations = run.expectations;
    let labels: Vec<String> = expectations
        .iter()
        .map(Expectation::display_label)
        .collect();
    let judged = run.judge.filter(|_| {
        expectations
            .iter()
            .any(|e| agent_test_network::judge::needs_judge(&e.check))
    });
    let evaluate = |t: &Transcript| match judged {
        None => agent_test_core::evaluate::evaluate_with(t, expectations, None, Some(&labels)),
        Some((judge, repeat)) => graded(judge, repeat, t, expectations, &labels),
    };
    let base = evaluate(run.transcript);
    let failing: Vec<&str> = base
        .iter()
        .filter(|v| v.fails_test() && v.status == Status::Fail)
        .map(|v| v.label.as_str())
        .collect();
    if !failing.is_empty() {
        return Err(format!(
            "the scenario does not pass on this transcript, so its mutants measure nothing: {}",
            failing.join("; ")
        ));
    }
    let made = mutants(run.transcript);
    let outcome = |m: &Mutant| MutantOutcome {
        change: m.change.clone(),
        changed: m.changed,
        fate: fate(&base, &evaluate(&m.transcript), expectations, m.changed),
    };
    let mutants = if parallel {
        in_parallel(&made, outcome)
    } else {
        made.iter().map(outcome).collect()
    };
    Ok(Mutation { mutants })
}

/// The verdicts of `expectations` on `t` with the judge's grades: on a runtime of this
/// thread's own (the mutants are evaluated on plain threads).
fn graded(
    judge: &Judge,
    repeat: usize,
    t: &Transcript,
    expectations: &[Expectation],
    labels: &[String],
) -> Vec<Verdict> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    match runtime {
        Ok(rt) => {
            rt.block_on(agent_test_network::judge::evaluate_judged(
                Some(judge),
                t,
                expectations,
                Some(labels),
                repeat,
            ))
            .0
        }
        Err(e) => {
            let why = format!("not graded: no runtime for the judge: {e}");
            let unavailable = agent_test_core::model::judgement::Judgements::unavailable(&why);
            agent_test_core::evaluate::evaluate_with(
                t,
                expectations,
                Some(&unavailable),
                Some(labels),
            )
        }
    }
}

/// `f` of every mutant, in order, on every core: the mutants are split into one run of
/// consecutive mutants per thread (a few dozen per thread at least: a thread costs more than
/// evaluating a small transcript).
fn in_parallel(made: &[Mutant], f: impl Fn(&Mutant) -> MutantOutcome + Sync) -> Vec<MutantOutcome> {
    const LEAST_PER_THREAD: usize = 32;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = cores.min(made.len() / LEAST_PER_THREAD).max(1);
    if threads == 1 {
        return made.iter().map(&f).collect();
    }
    let per_thread = made.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let runs: Vec<_> = made
            .chunks(per_thread)
            .map(|run| (run, scope.spawn(|| run.iter().map(&f).collect::<Vec<_>>())))
            .collect();
        runs.into_iter()
            .flat_map(|(run, handle)| {
                // A check that panics is a bug of the check, not of the mutant: its run's
                // mutants say so rather than vanish.
                handle.join().unwrap_or_else(|_| {
                    run.iter()
                        .map(|m| MutantOutcome {
                            change: m.change.clone(),
                            changed: m.changed,
                            fate: Fate::Errored {
                                by: vec!["a check panicked while evaluating it".to_owned()],
                            },
                        })
                        .collect()
                })
            })
            .collect()
    })
}

/// A mutant's fate from its verdicts against the transcript's: killed when a check fails that
/// did not; else needing the judge when a judge check's verdict is not cached; else equivalent when it blew a budget no check reads; else errored when a check
/// that reads what changed could not be evaluated (on the transcript too, maybe: then it
/// measured nothing either way); else survived.
fn fate(base: &[Verdict], now: &[Verdict], expectations: &[Expectation], changed: Changed) -> Fate {
    let killed: Vec<String> = base
        .iter()
        .zip(now)
        .filter(|(b, n)| n.fails_test() && n.status == Status::Fail && b.status != Status::Fail)
        .map(|(_, n)| n.label.clone())
        .collect();
    if !killed.is_empty() {
        return Fate::Killed { by: killed };
    }
    let unseen: Vec<String> = expectations
        .iter()
        .zip(now)
        .filter(|(e, v)| {
            v.status == Status::Error
                && agent_test_network::judge::needs_judge(&e.check)
                && v.reason
                    .contains(agent_test_network::judge::NO_CACHED_VERDICT)
        })
        .map(|(_, v)| v.label.clone())
        .collect();
    if !unseen.is_empty() {
        return Fate::NeedsJudge { by: unseen };
    }
    let readers: Vec<&Verdict> = expectations
        .iter()
        .zip(now)
        .filter(|(e, _)| reads(&e.check, changed))
        .map(|(_, v)| v)
        .collect();
    let budget = matches!(changed, Changed::Usage | Changed::Latency | Changed::Cost);
    if readers.is_empty() && budget {
        return Fate::Equivalent;
    }
    let errored: Vec<String> = readers
        .iter()
        .filter(|v| v.status == Status::Error)
        .map(|v| format!("{}: {}", v.label, v.reason))
        .collect();
    if !errored.is_empty() {
        return Fate::Errored { by: errored };
    }
    Fate::Survived {
        readers: readers.iter().map(|v| v.label.clone()).collect(),
    }
}

/// Whether `check` reads the part a mutant changed.
fn reads(check: &Check, changed: Changed) -> bool {
    let part = match changed {
        Changed::Calls => Part::Calls,
        Changed::Arguments => Part::Arguments,
        Changed::Results => Part::Results,
        Changed::Outcomes => Part::Outcomes,
        Changed::ReplyText => Part::ReplyText,
        Changed::Usage => Part::Usage,
        Changed::Latency => return matches!(check, Check::Latency(_) | Check::Custom(_)),
        Changed::Cost => return matches!(check, Check::Cost(_) | Check::Custom(_)),
        Changed::Turns => return true,
    };
    check.reads().contains(&part)
}

#[cfg(test)]
mod tests;
