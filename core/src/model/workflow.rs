//! Workflow state and guardrail results an agent can report with a turn.

use serde::{Deserialize, Serialize};

/// Where a state-machine workflow stands after a turn.
///
/// ```
/// use agent_test::model::Workflow;
/// let w = Workflow::in_state("processing").transitions(["intake", "processing"]);
/// assert_eq!(w.state.as_deref(), Some("processing"));
/// assert!(!w.complete);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workflow {
    /// The current state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// The states entered during the turn, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transitions: Vec<String>,
    /// Whether the workflow reached a terminal state (one with no outgoing transitions).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub complete: bool,
}

impl Workflow {
    /// A workflow in `state`.
    ///
    /// See the type's example.
    pub fn in_state(state: impl Into<String>) -> Self {
        Workflow {
            state: Some(state.into()),
            ..Workflow::default()
        }
    }

    /// The states entered during the turn.
    ///
    /// See the type's example.
    pub fn transitions<S: Into<String>>(mut self, states: impl IntoIterator<Item = S>) -> Self {
        self.transitions = states.into_iter().map(Into::into).collect();
        self
    }

    /// Marks the workflow complete.
    ///
    /// ```
    /// # use agent_test::model::Workflow;
    /// assert!(Workflow::in_state("resolved").completed().complete);
    /// ```
    pub fn completed(mut self) -> Self {
        self.complete = true;
        self
    }
}

/// The result of one guardrail (validator) on a turn.
///
/// ```
/// use agent_test::model::Guardrail;
/// let g = Guardrail::triggered("banned_words").message("'definitely' is banned");
/// assert!(g.triggered);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guardrail {
    /// The guardrail's name or type.
    pub name: String,
    /// Whether it fired.
    pub triggered: bool,
    /// What it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Guardrail {
    /// A guardrail that fired.
    ///
    /// See the type's example.
    pub fn triggered(name: impl Into<String>) -> Self {
        Guardrail {
            name: name.into(),
            triggered: true,
            message: None,
        }
    }

    /// A guardrail that ran and did not fire.
    ///
    /// ```
    /// # use agent_test::model::Guardrail;
    /// assert!(!Guardrail::passed("max_length").triggered);
    /// ```
    pub fn passed(name: impl Into<String>) -> Self {
        Guardrail {
            triggered: false,
            ..Guardrail::triggered(name)
        }
    }

    /// Sets the message.
    ///
    /// See the type's example.
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}
