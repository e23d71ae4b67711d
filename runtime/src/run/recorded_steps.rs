//! The steps of a scenario a recorded transcript can answer (variable checks, on the values the
//! recording kept) and those it cannot (a simulated user's, reported as errors).

use crate::run::bag::Bag;
use crate::run::data_steps::variable_outcome;
use crate::run::step_verdict::{objective_label, step_verdict, variable_label, variable_severity};
use agent_test_core::check::{Outcome, Severity};
use agent_test_core::model::Transcript;
use agent_test_core::model::Verdict;
use agent_test_core::scenario::{Scenario, Step, VariableOp};
use serde_json::Value;

/// Error verdicts for the steps whose checks need a live run: a recorded transcript has no
/// variable bag, and a simulated user's checks belong to the turns it plays.
pub(super) fn live_only(scenario: &Scenario) -> Vec<Verdict> {
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
                variable_severity(*warning),
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
pub(super) struct VariableCheckAt {
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
pub(super) fn variable_checks(scenario: &Scenario) -> Vec<VariableCheckAt> {
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
    pub(super) fn verdict(&self, transcript: &Transcript, interpolate: bool) -> Verdict {
        let severity = variable_severity(self.warning);
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
        let so_far = Transcript::new(transcript.turns.iter().take(self.turns).cloned().collect())
            .with_history(transcript.history.clone());
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
