//! Calibrating a judge against human labels: how far its verdicts can be trusted.
//!
//! A judge check is only as good as the judge's agreement with the people whose judgement it
//! stands for. [`Judge::calibrate`] grades cases a human labelled pass or fail — exactly as a
//! judge check in a test grades them: the same material, the same prompt, the same cache — and
//! reports, per check (criteria and threshold), the [`Agreement`]: how often the judge agreed,
//! Cohen's κ (agreement beyond chance), the true-positive and true-negative rates with their
//! Wilson intervals, the threshold that would have maximised κ, and every disagreement with the
//! judge's reasoning. A case the judge could not grade is listed apart and counted nowhere: a
//! calibration with ungraded cases measured part of the labels.
//!
//! ```
//! # use agent_test::agent::BoxFuture;
//! use agent_test::judge::{Completion, Judge, JudgeMode, JudgeModel, JudgePrompt, ModelError};
//! use agent_test::judge::calibrate::Labelled;
//! use agent_test::prelude::*;
//! /// Scores 0.9 when the reply says "sorry", else 0.2.
//! struct Keyword;
//! impl JudgeModel for Keyword {
//!     fn id(&self) -> String { "keyword".into() }
//!     fn complete<'a>(&'a self, p: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
//!         Box::pin(async move {
//!             let asked: serde_json::Value = serde_json::from_str(&p.user).unwrap();
//!             let c = &asked["checks"][0];
//!             let text = c["material"]["text"].as_str().unwrap().to_lowercase();
//!             let score = if text.contains("sorry") { 0.9 } else { 0.2 };
//!             let answer = json!({"results": [{"id": c["id"], "score": score, "pass": score > 0.5, "reasoning": "looked for an apology"}]});
//!             Ok(Completion { text: answer.to_string(), usage: None })
//!         })
//!     }
//! }
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let polite = judge("apologises");
//! let cases = vec![
//!     Labelled::reply("a", polite.clone(), "Sorry about that.", true),
//!     Labelled::reply("b", polite.clone(), "Not my problem.", false),
//!     Labelled::reply("c", polite.clone(), "So sorry, but no.", false), // the judge is wrong here
//!     Labelled::reply("d", polite, "My apologies.", true),              // and here
//! ];
//! let calibration = Judge::new(Keyword).mode(JudgeMode::Off).calibrate(&cases, 2).await;
//! let a = &calibration.checks[0];
//! assert_eq!((a.cases, a.agreement), (4, 0.5));
//! assert_eq!(a.kappa, Some(0.0));
//! assert_eq!(a.disagreements.len(), 2);
//! # });
//! ```

use serde::{Deserialize, Serialize};

use super::Judge;
pub use super::labels::{labels, labels_from_text};
use agent_test_core::check::{
    Check, EvalContext, IntoExpectation, JudgeCheck, Scope, TranscriptIndex,
};
use agent_test_core::model::judgement::item_key;
use agent_test_core::model::{Reply, Transcript, Turn};

/// The confidence of the rates' Wilson intervals.
const CONFIDENCE: f64 = 0.95;

/// One case a human labelled: what the judge check grades, and the human's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    /// Names the case in the report (`line 12`, `refund-polite-3`).
    pub id: String,
    /// The judge check the label is for: its criteria, threshold and what it reads.
    pub check: JudgeCheck,
    /// Where in the transcript it grades: a turn, or the conversation (its final reply).
    pub scope: Scope,
    /// What the check grades.
    pub transcript: Transcript,
    /// The human's verdict: `true` for pass.
    pub label: bool,
    /// The human's score from 0 to 1, when they gave one.
    pub score: Option<f64>,
}

impl Labelled {
    /// A case of one reply, graded without a user message.
    ///
    /// See the [module](self) example.
    pub fn reply(id: impl Into<String>, check: JudgeCheck, reply: &str, label: bool) -> Self {
        Labelled {
            id: id.into(),
            check: check.without_prompt(),
            scope: Scope::Conversation,
            transcript: Transcript::new(vec![Turn::recorded(0, "", Reply::text(reply))]),
            label,
            score: None,
        }
    }
}

/// A case the judge graded: the human's verdict beside the judge's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Graded {
    /// The case.
    pub id: String,
    /// The human's verdict.
    pub label: bool,
    /// The human's score, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_score: Option<f64>,
    /// The judge's score.
    pub score: f64,
    /// Whether the score reaches the check's threshold: the verdict a test would have given.
    pub pass: bool,
    /// The judge's reasoning.
    pub reasoning: String,
}

/// A case the judge could not grade, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ungraded {
    /// The case.
    pub id: String,
    /// Its check, described.
    pub check: String,
    /// Why it was not graded.
    pub reason: String,
}

/// A rate with its Wilson interval at 95 %: `hits` of `cases`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// hits / cases.
    pub rate: f64,
    /// The interval's lower bound.
    pub low: f64,
    /// The interval's upper bound.
    pub high: f64,
    /// How many cases the judge got right.
    pub hits: u32,
    /// Of how many.
    pub cases: u32,
}

impl Rate {
    fn of(hits: u32, cases: u32) -> Option<Rate> {
        let (low, high) = agent_test_core::model::reliability::wilson(hits, cases, CONFIDENCE)?;
        Some(Rate {
            rate: f64::from(hits) / f64::from(cases),
            low,
            high,
            hits,
            cases,
        })
    }
}

/// The four counts of the judge's verdicts against the human's (pass is positive).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confusion {
    /// Human pass, judge pass.
    pub true_positives: u32,
    /// Human pass, judge fail.
    pub false_negatives: u32,
    /// Human fail, judge pass.
    pub false_positives: u32,
    /// Human fail, judge fail.
    pub true_negatives: u32,
}

impl Confusion {
    /// The counts of `(human, judge)` verdicts.
    fn of(pairs: impl Iterator<Item = (bool, bool)>) -> Self {
        let mut c = Confusion::default();
        for (human, judge) in pairs {
            let n = match (human, judge) {
                (true, true) => &mut c.true_positives,
                (true, false) => &mut c.false_negatives,
                (false, true) => &mut c.false_positives,
                (false, false) => &mut c.true_negatives,
            };
            *n += 1;
        }
        c
    }

    fn total(&self) -> u32 {
        self.true_positives + self.false_negatives + self.false_positives + self.true_negatives
    }

    /// Cohen's κ: (observed − chance agreement) / (1 − chance agreement); `None` when chance
    /// agreement is certain (every label and every verdict the same): κ is then 0/0.
    ///
    /// ```
    /// use agent_test::judge::calibrate::Confusion;
    /// let c = Confusion { true_positives: 20, false_negatives: 5, false_positives: 10, true_negatives: 15 };
    /// assert!((c.kappa().unwrap() - 0.4).abs() < 1e-12);
    /// ```
    pub fn kappa(&self) -> Option<f64> {
        let n = f64::from(self.total());
        let (tp, fneg) = (
            f64::from(self.true_positives),
            f64::from(self.false_negatives),
        );
        let (fpos, tn) = (
            f64::from(self.false_positives),
            f64::from(self.true_negatives),
        );
        let observed = (tp + tn) / n;
        let chance = ((tp + fneg) * (tp + fpos) + (fpos + tn) * (fneg + tn)) / (n * n);
        (n > 0.0 && chance < 1.0).then(|| (observed - chance) / (1.0 - chance))
    }
}

/// A threshold and the κ it would have given.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Threshold {
    /// Pass iff the score reaches it.
    pub threshold: f64,
    /// The κ at that threshold.
    pub kappa: f64,
}

/// How far a judge agrees with the humans on one check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// The check, described: `judge "is polite" (score ≥ 0.8)`.
    pub check: String,
    /// Its threshold.
    pub threshold: f64,
    /// Graded cases.
    pub cases: u32,
    /// The judge's verdicts against the humans'.
    pub confusion: Confusion,
    /// The share of cases where the judge agreed.
    pub agreement: f64,
    /// Cohen's κ; `None` when undefined (see [`Confusion::kappa`]).
    pub kappa: Option<f64>,
    /// Of the cases humans passed, the share the judge passed; `None` without such cases.
    pub true_positive_rate: Option<Rate>,
    /// Of the cases humans failed, the share the judge failed; `None` without such cases.
    pub true_negative_rate: Option<Rate>,
    /// The threshold, among the judge's scores, that maximises κ (ties: the nearest to the
    /// check's, then the lower); `None` when no threshold gives a defined κ.
    pub best_threshold: Option<Threshold>,
    /// The mean absolute difference between the judge's scores and the humans', over the
    /// cases with a human score.
    pub mean_score_difference: Option<f64>,
    /// The cases where the judge's verdict differs from the human's.
    pub disagreements: Vec<Graded>,
}

impl Agreement {
    /// The agreement over the graded cases of one check.
    fn of(check: String, threshold: f64, graded: Vec<Graded>) -> Self {
        let confusion = Confusion::of(graded.iter().map(|g| (g.label, g.pass)));
        let cases = confusion.total();
        let agree = confusion.true_positives + confusion.true_negatives;
        let humans_pass = confusion.true_positives + confusion.false_negatives;
        let humans_fail = confusion.false_positives + confusion.true_negatives;
        let scored: Vec<f64> = graded
            .iter()
            .filter_map(|g| g.human_score.map(|h| (g.score - h).abs()))
            .collect();
        #[allow(clippy::cast_precision_loss)]
        let mean_score_difference =
            (!scored.is_empty()).then(|| scored.iter().sum::<f64>() / scored.len() as f64);
        Agreement {
            best_threshold: best_threshold(&graded, threshold),
            check,
            threshold,
            cases,
            confusion,
            agreement: if cases == 0 {
                0.0
            } else {
                f64::from(agree) / f64::from(cases)
            },
            kappa: confusion.kappa(),
            true_positive_rate: Rate::of(confusion.true_positives, humans_pass),
            true_negative_rate: Rate::of(confusion.true_negatives, humans_fail),
            mean_score_difference,
            disagreements: graded.into_iter().filter(|g| g.label != g.pass).collect(),
        }
    }
}

/// The judge's score that, as a threshold, gives the highest κ.
fn best_threshold(graded: &[Graded], current: f64) -> Option<Threshold> {
    let mut scores: Vec<f64> = graded.iter().map(|g| g.score).collect();
    scores.sort_by(f64::total_cmp);
    scores.dedup();
    let mut best: Option<Threshold> = None;
    for t in scores {
        let Some(kappa) = Confusion::of(graded.iter().map(|g| (g.label, g.score >= t))).kappa()
        else {
            continue;
        };
        let better = best.is_none_or(|b| {
            kappa > b.kappa
                || (kappa == b.kappa && (t - current).abs() < (b.threshold - current).abs())
        });
        if better {
            best = Some(Threshold {
                threshold: t,
                kappa,
            });
        }
    }
    best
}

/// What [`Judge::calibrate`] found: the agreement per check, in the order the checks first
/// appear, and the cases that could not be graded.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// One agreement per distinct check (criteria, threshold and what it reads).
    pub checks: Vec<Agreement>,
    /// Cases the judge could not grade: counted in no agreement.
    pub ungraded: Vec<Ungraded>,
}

impl Judge {
    /// Grades every labelled case as its judge check would in a test (same material, prompt
    /// and cache; one request per case, `jobs` at once) and measures the agreement with the
    /// humans per check.
    ///
    /// See the [module](self) example.
    pub async fn calibrate(&self, cases: &[Labelled], jobs: usize) -> Calibration {
        let mut outcomes: Vec<Option<Result<Graded, String>>> = vec![None; cases.len()];
        let mut queue = cases.iter().enumerate();
        let mut pending = tokio::task::JoinSet::new();
        loop {
            while pending.len() < jobs.max(1) {
                let Some((i, case)) = queue.next() else {
                    break;
                };
                match item(case) {
                    Ok((key, item)) => {
                        let judge = self.clone();
                        pending.spawn(async move {
                            let (mut grades, _, _) = judge.grade_keyed(&[(key, item)], 0).await;
                            (
                                i,
                                grades.pop().unwrap_or_else(|| Err("no grade".to_owned())),
                            )
                        });
                    }
                    Err(why) => {
                        if let Some(slot) = outcomes.get_mut(i) {
                            *slot = Some(Err(why));
                        }
                    }
                }
            }
            let Some(done) = pending.join_next().await else {
                break;
            };
            // A grading that panicked is a bug of a judge model: its case says so below.
            if let Ok((i, grade)) = done
                && let (Some(slot), Some(case)) = (outcomes.get_mut(i), cases.get(i))
            {
                *slot = Some(grade.map(|j| Graded {
                    id: case.id.clone(),
                    label: case.label,
                    human_score: case.score,
                    pass: j.score >= case.check.threshold_of(),
                    score: j.score,
                    reasoning: j.reasoning,
                }));
            }
        }
        let mut groups: Vec<(String, &JudgeCheck, Vec<Graded>)> = Vec::new();
        let mut ungraded = Vec::new();
        for (case, outcome) in cases.iter().zip(outcomes) {
            let key = serde_json::to_string(&case.check).unwrap_or_default();
            match outcome.unwrap_or_else(|| Err("the grading panicked".to_owned())) {
                Ok(g) => match groups.iter_mut().find(|(k, _, _)| *k == key) {
                    Some((_, _, list)) => list.push(g),
                    None => groups.push((key, &case.check, vec![g])),
                },
                Err(reason) => ungraded.push(Ungraded {
                    id: case.id.clone(),
                    check: case.check.describe(),
                    reason,
                }),
            }
        }
        Calibration {
            checks: groups
                .into_iter()
                .map(|(_, check, graded)| {
                    Agreement::of(check.describe(), check.threshold_of(), graded)
                })
                .collect(),
            ungraded,
        }
    }
}

/// What the judge is asked for a case, with its cache key, exactly as in a test run.
fn item(case: &Labelled) -> Result<(String, crate::judge::JudgeItem), String> {
    let expectation = case.check.clone().into_expectation();
    let index = TranscriptIndex::new(&case.transcript);
    let cx = EvalContext::new(&index, case.scope);
    let Check::Judge(check) = &expectation.check else {
        return Err("not a judge check".to_owned());
    };
    let item = check.item(&cx).map_err(|o| o.reason)?;
    Ok((item_key(&item), item))
}
