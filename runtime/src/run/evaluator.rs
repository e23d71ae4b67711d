//! A scenario prepared for evaluating many recorded transcripts.

use crate::check::{Expectation, Outcome, Severity};
use crate::judge::Judge;
use crate::model::ScenarioInfo;
use crate::model::Verdict;
use crate::model::{Context, Transcript};
use crate::report::Report;
use crate::run::bag::Bag;
use crate::run::data_steps::variable_outcome;
use crate::run::step_verdict::{objective_label, step_verdict, variable_label};
use crate::scenario::{Scenario, Step, VariableOp};
use serde_json::Value;

/// A scenario's checks with their scopes, prepared once and shared by every evaluation: the
/// compiled regexes (and their match caches), schemas and paths are reused from one
/// transcript to the next. What `agent-test eval` uses for thousands of recordings;
/// [`Scenario::evaluate`] is the one-off form.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::model::{Transcript, Turn};
/// use agent_test::scenario::Scenario;
///
/// let scenario = Scenario::new("greeting").user("hi").expect_turn(reply().matches("(?i)^hello"));
/// let evaluator = scenario.evaluator();
/// for text in ["Hello!", "Hi."] {
///     let recorded = Transcript::new(vec![Turn::new(0, "hi", Reply::text(text), 30)]);
///     let report = evaluator.evaluate(recorded);
///     assert_eq!(report.passed(), text == "Hello!");
/// }
/// ```
#[derive(Clone, Debug)]
pub struct ScenarioEvaluator {
    info: ScenarioInfo,
    expectations: Vec<Expectation>,
    /// The checks' labels, worked out once for every transcript.
    labels: Vec<String>,
    /// What only a live run can judge (simulated users, the checks after them), reported as
    /// errors so that nothing the scenario asks for is silently dropped.
    live_only: Vec<Verdict>,
    /// Variable checks, evaluated on the variables a recording kept.
    variables: Vec<VariableCheckAt>,
    /// Whether the scenario interpolates (its variable checks' values).
    interpolate: bool,
    /// The scenario's context variables, for recordings that do not carry them.
    context: Context,
}

impl ScenarioEvaluator {
    /// Prepares `scenario` (see [`Scenario::evaluator`]).
    pub fn new(scenario: &Scenario) -> Self {
        Self::from(scenario.clone())
    }

    fn with_expectations(mut self, expectations: Vec<Expectation>) -> Self {
        self.labels = expectations
            .iter()
            .map(Expectation::display_label)
            .collect();
        self.expectations = expectations;
        self
    }

    /// The scenario's name.
    ///
    /// ```
    /// # use agent_test::scenario::Scenario;
    /// assert_eq!(Scenario::new("refund").evaluator().name(), "refund");
    /// ```
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// Whether some check needs the judge ([`ScenarioEvaluator::evaluate_judged`]).
    ///
    /// ```
    /// # use agent_test::{prelude::*, scenario::Scenario};
    /// assert!(Scenario::new("x").expect(judge("polite")).evaluator().needs_judge());
    /// ```
    pub fn needs_judge(&self) -> bool {
        self.expectations
            .iter()
            .any(|e| crate::judge::needs_judge(&e.check))
    }

    /// Evaluates the checks on a recorded transcript, calling nothing. The transcript is moved
    /// into the report rather than copied.
    ///
    /// See the type's example.
    pub fn evaluate(&self, transcript: Transcript) -> Report {
        let transcript = self.with_context(transcript);
        let checked = crate::evaluate::evaluate_with(
            &transcript,
            &self.expectations,
            None,
            Some(&self.labels),
        );
        self.report(transcript, checked)
    }

    /// Evaluates the checks on a recorded transcript, with `judge` grading the judge checks
    /// (all in one request, or from its cache). Without a judge, judge checks are errors.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::model::{Transcript, Turn};
    /// use agent_test::scenario::Scenario;
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let scenario = Scenario::new("greeting").user("hi").expect_turn(judge("is friendly"));
    /// let recorded = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 30)]);
    /// let report = scenario.evaluator().evaluate_judged(recorded, None).await;
    /// assert!(report.verdicts[0].reason.starts_with("not graded: no judge configured"));
    /// # });
    /// ```
    pub async fn evaluate_judged(&self, transcript: Transcript, judge: Option<&Judge>) -> Report {
        let transcript = self.with_context(transcript);
        let cassette = crate::agent::cassette_entries::EntriesUsed::default();
        let (checked, judgements, usage) = cassette
            .scope(crate::judge::evaluate_judged(
                judge,
                &transcript,
                &self.expectations,
                Some(&self.labels),
                0,
            ))
            .await;
        let mut report = self.report(transcript, checked);
        report.judge = usage;
        report.add_notes(judgements.notes());
        report.cassette = cassette.list();
        report
    }

    /// The scenario's context variables the recording lacks (a recording's own values win:
    /// they are what the run really used).
    fn with_context(&self, mut transcript: Transcript) -> Transcript {
        let mut context = self.context.clone();
        context.extend(&transcript.context);
        transcript.context = context;
        transcript
    }

    /// The report of a recorded run: the agent's failed turns, the checks' verdicts, then
    /// what a recording cannot show and the variable checks.
    fn report(&self, transcript: Transcript, checked: Vec<Verdict>) -> Report {
        let mut verdicts = crate::evaluate::turn_failures(&transcript);
        verdicts.extend(checked);
        verdicts.extend(self.live_only.iter().cloned());
        verdicts.extend(
            self.variables
                .iter()
                .map(|v| v.verdict(&transcript, self.interpolate)),
        );
        let mut report = Report::new(self.info.clone(), verdicts, transcript, 0);
        report.checks = crate::check::as_data(&self.expectations);
        report
    }
}

/// Error verdicts for the steps whose checks need a live run: a recorded transcript has no
/// variable bag, and a simulated user's checks belong to the turns it plays.
fn live_only(scenario: &Scenario) -> Vec<Verdict> {
    let error = |label: String, kind: &'static str, severity: Severity, reason: &str| {
        step_verdict(
            label,
            kind,
            severity,
            Outcome::error(format!("not evaluated: {reason}")),
        )
    };
    let mut out = Vec::new();
    let mut simulated = false;
    let after_simulation = "it follows a simulated user, whose turns a recording cannot place";
    for step in &scenario.steps {
        match step {
            Step::User { expect, .. } | Step::Expect { expect } if simulated => {
                out.extend(expect.iter().map(|e| {
                    error(
                        e.display_label(),
                        e.check.kind(),
                        e.severity,
                        after_simulation,
                    )
                }));
            }
            Step::CheckVariable {
                path,
                op,
                equals,
                label,
                warning,
            } if simulated => out.push(error(
                label
                    .clone()
                    .unwrap_or_else(|| variable_label(path, *op, equals)),
                "variable",
                if *warning {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                after_simulation,
            )),
            Step::Simulate {
                objective, expect, ..
            } => {
                simulated = true;
                let reason =
                    "a simulated user's checks are evaluated on the turns it plays, in a live run";
                out.push(error(
                    objective_label(objective),
                    "simulate",
                    Severity::Error,
                    reason,
                ));
                out.extend(
                    expect
                        .iter()
                        .map(|e| error(e.display_label(), e.check.kind(), e.severity, reason)),
                );
            }
            _ => {}
        }
    }
    out
}

/// A variable check and its place in the run: how many bag entries and turns come before it.
#[derive(Clone, Debug)]
struct VariableCheckAt {
    path: String,
    op: VariableOp,
    equals: Value,
    label: Option<String>,
    warning: bool,
    entries: usize,
    turns: usize,
}

/// The variable checks a recording can answer (those before any simulated user), each with
/// the number of bag entries the steps before it set and the turns before it.
fn variable_checks(scenario: &Scenario) -> Vec<VariableCheckAt> {
    let mut out = Vec::new();
    let (mut entries, mut turns) = (0, 0);
    for step in &scenario.steps {
        match step {
            Step::User { .. } => turns += 1,
            Step::Extract { id, .. } => entries += 1 + usize::from(id.is_some()),
            Step::Request { save_as, id, .. } => {
                entries += usize::from(save_as.is_some()) + usize::from(id.is_some());
            }
            Step::Simulate { .. } => break,
            Step::CheckVariable {
                path,
                op,
                equals,
                label,
                warning,
            } => out.push(VariableCheckAt {
                path: path.clone(),
                op: *op,
                equals: equals.clone(),
                label: label.clone(),
                warning: *warning,
                entries,
                turns,
            }),
            _ => {}
        }
    }
    out
}

impl VariableCheckAt {
    /// The check's verdict on a recording: the bag rebuilt from the entries set before it, the
    /// conversation as it stood then.
    fn verdict(&self, transcript: &Transcript, interpolate: bool) -> Verdict {
        let severity = if self.warning {
            Severity::Warning
        } else {
            Severity::Error
        };
        let label = |equals: &Value| {
            self.label
                .clone()
                .unwrap_or_else(|| variable_label(&self.path, self.op, equals))
        };
        let Some(entries) = transcript.variables.get(..self.entries) else {
            let kept = transcript.variables.len();
            let why = if kept == 0 {
                "not measured: the recording keeps no variables (a run recorded by `agent-test \
                 run`, or a test's JSON report, keeps them)"
                    .to_owned()
            } else {
                format!(
                    "not measured: the recording keeps {kept} variable value(s), but the steps \
                     before this check set {}",
                    self.entries
                )
            };
            return step_verdict(
                label(&self.equals),
                "variable",
                severity,
                Outcome::error(why),
            );
        };
        let bag = Bag::replay(entries);
        let so_far = Transcript {
            turns: transcript.turns.iter().take(self.turns).cloned().collect(),
            history: transcript.history.clone(),
            ..Transcript::default()
        };
        let expected = if interpolate {
            bag.interpolate_value(&self.equals, &so_far)
        } else {
            self.equals.clone()
        };
        let outcome = variable_outcome(
            &self.path,
            bag.lookup(&self.path, &so_far),
            self.op,
            &expected,
        );
        step_verdict(label(&expected), "variable", severity, outcome)
    }
}

/// The scenario prepared for evaluating many transcripts, taken rather than copied: what a
/// command evaluating thousands of scenarios uses.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::{ScenarioEvaluator, scenario::Scenario};
/// let evaluator = ScenarioEvaluator::from(Scenario::new("x").user("hi").expect(no_tools()));
/// assert_eq!(evaluator.name(), "x");
/// ```
impl From<Scenario> for ScenarioEvaluator {
    fn from(mut scenario: Scenario) -> Self {
        ScenarioEvaluator {
            info: scenario.info(),
            live_only: live_only(&scenario),
            variables: variable_checks(&scenario),
            interpolate: scenario.interpolate,
            context: std::mem::take(&mut scenario.context),
            labels: Vec::new(),
            expectations: Vec::new(),
        }
        .with_expectations(scenario.into_expectations())
    }
}

impl Scenario {
    /// The scenario prepared for evaluating many transcripts (see [`ScenarioEvaluator`]).
    ///
    /// See [`ScenarioEvaluator`]'s example.
    pub fn evaluator(&self) -> ScenarioEvaluator {
        ScenarioEvaluator::new(self)
    }
}
