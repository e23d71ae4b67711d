//! Why a tools declaration cannot be read: the [kind](DeclaredToolsErrorKind) of problem, the
//! tool at fault and what is wrong.

use std::fmt;

/// What kind of problem stopped a tools declaration, to match on without reading the message.
///
/// ```
/// use agent_test::{DeclaredTools, DeclaredToolsErrorKind};
/// use serde_json::json;
/// let kind = |v| DeclaredTools::from_json(&v).unwrap_err().kind;
/// assert_eq!(kind(json!("search")), DeclaredToolsErrorKind::NotTools);
/// assert_eq!(kind(json!([{"parameters": {}}])), DeclaredToolsErrorKind::Invalid);
/// assert_eq!(kind(json!([{"name": "a"}, {"name": "a"}])), DeclaredToolsErrorKind::Duplicate);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DeclaredToolsErrorKind {
    /// The value is not a declaration: neither a list of tools, an object with `tools`, nor
    /// one tool.
    NotTools,
    /// A tool is not one: not an object, a `function` that is not an object, no `name` (text).
    Invalid,
    /// Two tools have the same name.
    Duplicate,
}

/// A tools declaration that cannot be read: the [kind](DeclaredToolsErrorKind) of problem,
/// which tool (its place in the list) and what is wrong.
///
/// ```
/// use agent_test::{DeclaredTools, DeclaredToolsErrorKind};
/// use serde_json::json;
/// let err = DeclaredTools::from_json(&json!({"tools": [{"name": "a"}, {"function": 3}]})).unwrap_err();
/// assert_eq!(err.kind, DeclaredToolsErrorKind::Invalid);
/// assert_eq!(err.tool, Some(1));
/// assert_eq!(err.message, "`function` is not an object");
/// assert_eq!(err.to_string(), "tool 1: `function` is not an object");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredToolsError {
    /// What kind of problem it is.
    pub kind: DeclaredToolsErrorKind,
    /// The tool at fault, by its place in the list (from 0); `None` for the whole value.
    pub tool: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl DeclaredToolsError {
    /// A problem of the tool at `index`.
    pub(super) fn of_tool(
        kind: DeclaredToolsErrorKind,
        index: usize,
        message: impl Into<String>,
    ) -> Self {
        DeclaredToolsError {
            kind,
            tool: Some(index),
            message: message.into(),
        }
    }
}

impl fmt::Display for DeclaredToolsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tool {
            Some(i) => write!(f, "tool {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for DeclaredToolsError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::DeclaredTools;
    use serde_json::json;

    /// Each garbled declaration is told by its kind, with the message a setup error shows.
    #[test]
    fn garbled_declarations_have_kinds() {
        use DeclaredToolsErrorKind::{Duplicate, Invalid, NotTools};
        for (value, kind, tool, message) in [
            (json!(null), NotTools, None, "expected a list of tools"),
            (
                json!({"functions": []}),
                NotTools,
                None,
                "expected a list of tools, or an object with `tools`",
            ),
            (json!([1]), Invalid, Some(0), "tool 0: expected an object"),
            (
                json!({"tools": [{"name": "a"}, {"function": {"parameters": {}}}]}),
                Invalid,
                Some(1),
                "tool 1: a tool needs a `name` (text)",
            ),
            (
                json!([{"name": "a"}, {"type": "function", "function": {"name": "a"}}]),
                Duplicate,
                Some(1),
                "tool 1: `a` is declared twice",
            ),
        ] {
            let err = DeclaredTools::from_json(&value).unwrap_err();
            assert_eq!(err.kind, kind, "{value}");
            assert_eq!(err.tool, tool, "{value}");
            assert_eq!(err.to_string(), message);
        }
    }
}
