//! The tools a check on calls is limited to (`.of_tools([..])`, for `no_tool_errors()` and
//! `no_repeated_calls()`): every tool when the list is empty.

use serde::{Deserialize, Serialize};

use crate::model::Call;

/// The tools whose calls count; every tool when empty. Written as the list of names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub(in crate::check) struct OfTools(Vec<String>);

impl OfTools {
    /// Limited to `tools`.
    pub(in crate::check) fn new<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> Self {
        OfTools(tools.into_iter().map(Into::into).collect())
    }

    /// Whether every tool counts (for `skip_serializing_if`).
    pub(in crate::check) fn is_every_tool(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether a call of `name` counts.
    pub(in crate::check) fn admits(&self, name: &str) -> bool {
        self.0.is_empty() || self.0.iter().any(|t| t == name)
    }

    /// "no tool call" or "no call of a, b", for a check's description.
    pub(in crate::check) fn no_call(&self) -> String {
        if self.0.is_empty() {
            "no tool call".to_owned()
        } else {
            format!("no call of {}", self.0.join(", "))
        }
    }

    /// Why the list compares nothing, if it does: an empty name matches no call.
    pub(in crate::check) fn problem(&self) -> Option<&'static str> {
        self.0
            .iter()
            .any(String::is_empty)
            .then_some("compared nothing: a tool name in the list is empty")
    }
}

/// The names of `calls`, each once, in the order they first appear.
pub(in crate::check) fn distinct_names<'a>(
    calls: impl IntoIterator<Item = &'a Call>,
) -> Vec<&'a str> {
    let mut names: Vec<&str> = Vec::new();
    for c in calls {
        if !names.contains(&c.name.as_str()) {
            names.push(&c.name);
        }
    }
    names
}
