//! Verdicts of steps rather than checks (setup, model-powered steps, requests, variable
//! checks), and the labels they share between live runs and recorded ones: a step is named
//! the same in both, so reports and repeat tallies line up.

use serde_json::Value;

use agent_test_core::check::{Outcome, Severity};
use agent_test_core::model::Verdict;
use agent_test_core::scenario::VariableOp;
use agent_test_core::util::text::compact;

/// A step's verdict: about the whole conversation, with no id.
pub(crate) fn step_verdict(
    label: String,
    kind: &'static str,
    severity: Severity,
    outcome: Outcome,
) -> Verdict {
    let mut verdict = Verdict::conversation(label, kind, outcome);
    verdict.severity = severity;
    verdict
}

/// What a variable check is called unless labelled.
pub(crate) fn variable_label(path: &str, op: VariableOp, equals: &Value) -> String {
    if op.has_right() {
        format!("{path} {} {}", op.phrase(), compact(equals))
    } else {
        format!("{path} {}", op.phrase())
    }
}

/// What a simulated user's verdict is called.
pub(crate) fn objective_label(objective: &str) -> String {
    format!("simulated user reached the objective {objective:?}")
}

/// The severity of a variable check: a warning when marked so (`warning: true`), else an error.
pub(crate) fn variable_severity(warning: bool) -> Severity {
    if warning {
        Severity::Warning
    } else {
        Severity::Error
    }
}
