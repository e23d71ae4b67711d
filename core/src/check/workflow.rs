//! Checks on a workflow's state machine.

use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Outcome;
use crate::evaluate::context::EvalContext;

/// What a [`WorkflowCheck`] requires.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", remote = "Self")]
#[non_exhaustive]
pub enum WorkflowExpect {
    /// The current state is this one.
    StateIs(String),
    /// The workflow entered this state at some point in scope.
    TransitionedTo(String),
    /// The workflow reached a terminal state.
    Complete,
}

crate::util::json::one_key_enum!(WorkflowExpect, ["state_is", "transitioned_to", "complete"]);

/// A check on a state-machine workflow (PromptKit's `state_is`, `transitioned_to`,
/// `workflow_complete`). The state is the last one reported in scope; transitions are those of
/// every turn in scope. A scope with no reported workflow state fails. Build it with
/// [`state_is`], [`transitioned_to`] or [`workflow_complete`].
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::model::{Reply, Transcript, Turn, Workflow};
/// let reply = Reply::text("").workflow(Workflow::in_state("processing").transitions(["processing"]));
/// let t = Transcript::new(vec![Turn::new(0, "billing help", reply, 1)]);
/// let v = evaluate(&t, &[
///     state_is("intake").into_expectation(),
///     transitioned_to("specialist").into_expectation(),
///     workflow_complete().into_expectation(),
/// ]);
/// assert_eq!(v[0].reason, r#"expected state "intake" but workflow is in state "processing""#);
/// assert_eq!(v[1].reason, r#"workflow never transitioned to state "specialist""#);
/// assert_eq!(v[2].reason, "workflow is not complete");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkflowCheck {
    expect: WorkflowExpect,
}

/// The workflow is in `state`.
///
/// See [`WorkflowCheck`].
pub fn state_is(state: impl Into<String>) -> WorkflowCheck {
    WorkflowCheck {
        expect: WorkflowExpect::StateIs(state.into()),
    }
}

/// The workflow entered `state` at some point in scope.
///
/// See [`WorkflowCheck`].
pub fn transitioned_to(state: impl Into<String>) -> WorkflowCheck {
    WorkflowCheck {
        expect: WorkflowExpect::TransitionedTo(state.into()),
    }
}

/// The workflow reached a terminal state.
///
/// See [`WorkflowCheck`].
pub fn workflow_complete() -> WorkflowCheck {
    WorkflowCheck {
        expect: WorkflowExpect::Complete,
    }
}

impl WorkflowCheck {
    /// One line describing the check.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(state_is("intake").describe(), r#"workflow state is "intake""#);
    /// ```
    pub fn describe(&self) -> String {
        match &self.expect {
            WorkflowExpect::StateIs(s) => format!("workflow state is {s:?}"),
            WorkflowExpect::TransitionedTo(s) => format!("workflow transitioned to {s:?}"),
            WorkflowExpect::Complete => "workflow complete".to_owned(),
        }
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let WorkflowExpect::StateIs(s) | WorkflowExpect::TransitionedTo(s) = &self.expect
            && s.is_empty()
        {
            return Outcome::error("compared nothing: the state name is empty");
        }
        let states: Vec<_> = cx
            .turns()
            .iter()
            .filter_map(|t| t.reply.workflow.as_ref())
            .collect();
        let Some(last) = states.last() else {
            return Outcome::fail("no workflow state was reported");
        };
        match &self.expect {
            WorkflowExpect::StateIs(want) => match &last.state {
                Some(s) if s == want => Outcome::passed(),
                Some(s) => Outcome::fail(format!(
                    "expected state {want:?} but workflow is in state {s:?}"
                ))
                .expected(json!(want))
                .actual(json!(s)),
                None => Outcome::fail("no workflow state was reported"),
            },
            WorkflowExpect::TransitionedTo(want) => {
                let transitions: Vec<&String> =
                    states.iter().flat_map(|w| &w.transitions).collect();
                if transitions.contains(&want) {
                    Outcome::passed()
                } else {
                    Outcome::fail(format!("workflow never transitioned to state {want:?}"))
                        .expected(json!(want))
                        .actual(json!({"transitions": transitions}))
                }
            }
            WorkflowExpect::Complete if last.complete => Outcome::passed(),
            WorkflowExpect::Complete => {
                Outcome::fail("workflow is not complete").actual(json!({"complete": false}))
            }
        }
    }
}

impl super::CheckRules for WorkflowCheck {
    const KIND: Kind = Kind::new(
        "workflow",
        "a workflow's state, transitions and completion",
    )
    .words(&[
        Word::new("state_is", Arg::Text),
        Word::new("transitioned_to", Arg::Text),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            state_is("s").into_expectation(),
            transitioned_to("t").into_expectation(),
            workflow_complete().into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        &[]
    }
}
