//! Checks on the set of tools called: required or forbidden.

use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::calls::pairing::{call_violation, called_names, counted_calls, successful_only};
use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
use crate::model::Call;

/// Whether a [`ToolSet`] lists tools that must or must not be called.
///
/// ```
/// use agent_test::check::SetMode;
/// assert_ne!(SetMode::Required, SetMode::Forbidden);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetMode {
    /// Each listed tool must be called at least once, in any order.
    Required,
    /// No listed tool may be called.
    Forbidden,
}

/// A check on a set of tool names. Build it with [`required_tools`] or [`forbidden_tools`].
///
/// Each missing (or forbidden-but-called) tool is reported as its own violation. An empty list
/// (or an empty name in it) compares nothing: an error verdict. With turns but no call,
/// `forbidden_tools([..])` passes (nothing forbidden happened); with no turn at all, every check
/// is an error ("no turn ran").
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// use serde_json::json;
///
/// let reply = Reply::text("").call(Call::tool("lookup_account", json!({})));
/// let t = Transcript::new(vec![Turn::new(0, "hi", reply, 1)]);
/// let v = evaluate(&t, &[required_tools(["lookup_account", "verify_identity"]).into_expectation()]);
/// assert_eq!(v[0].status, Status::Fail);
/// assert_eq!(v[0].reason, "required tool not called: verify_identity");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolSet {
    mode: SetMode,
    tools: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    succeeded: bool,
}

/// Every listed tool must be called at least once, in any order.
///
/// ```
/// use agent_test::prelude::*;
/// assert_eq!(required_tools(["a", "b"]).describe(), "tools called: a, b");
/// ```
pub fn required_tools<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> ToolSet {
    ToolSet {
        mode: SetMode::Required,
        tools: tools.into_iter().map(Into::into).collect(),
        succeeded: false,
    }
}

/// No listed tool may be called.
///
/// ```
/// use agent_test::prelude::*;
/// assert_eq!(forbidden_tools(["delete_account"]).describe(), "tools not called: delete_account");
/// ```
pub fn forbidden_tools<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> ToolSet {
    ToolSet {
        mode: SetMode::Forbidden,
        tools: tools.into_iter().map(Into::into).collect(),
        succeeded: false,
    }
}

impl ToolSet {
    /// Count only calls that succeeded.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = required_tools(["pay"]).succeeded();
    /// assert_eq!(c.describe(), "tools called: pay (successful calls only)");
    /// ```
    pub fn succeeded(mut self) -> Self {
        self.succeeded = true;
        self
    }

    /// One line describing the check.
    ///
    /// See [`required_tools`].
    pub fn describe(&self) -> String {
        let verb = match self.mode {
            SetMode::Required => "tools called",
            SetMode::Forbidden => "tools not called",
        };
        let suffix = successful_only(self.succeeded);
        format!("{verb}: {}{suffix}", self.tools.join(", "))
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if self.tools.is_empty() {
            return Outcome::error(format!(
                "compared nothing: the list of {} tools is empty",
                self.mode_key()
            ));
        }
        if self.tools.iter().any(String::is_empty) {
            return Outcome::error("compared nothing: a tool name in the list is empty");
        }
        let calls: Vec<(usize, &Call)> = counted_calls(cx, self.succeeded);
        let called = |name: &str| calls.iter().any(|(_, c)| c.name == name);
        let mut violations = Vec::new();
        let mut offenders: Vec<&str> = Vec::new();
        match self.mode {
            SetMode::Required => {
                for t in self.tools.iter().filter(|t| !called(t)) {
                    offenders.push(t);
                    violations.push(Violation::new(
                        "missing_tool",
                        format!("`{t}` was not called"),
                    ));
                }
            }
            SetMode::Forbidden => {
                for (i, c) in calls.iter().filter(|(_, c)| self.tools.contains(&c.name)) {
                    if !offenders.contains(&c.name.as_str()) {
                        offenders.push(&c.name);
                    }
                    violations.push(call_violation(
                        cx,
                        "forbidden_tool",
                        format!("`{}` was called at {}", c.name, cx.position_name(*i)),
                        *i,
                        json!({"tool": c.name, "arguments": c.arguments}),
                    ));
                }
            }
        }
        if violations.is_empty() {
            return Outcome::passed();
        }
        let reason = match self.mode {
            SetMode::Required => format!("required tool not called: {}", offenders.join(", ")),
            SetMode::Forbidden => format!("forbidden tool called: {}", offenders.join(", ")),
        };
        Outcome::fail(reason)
            .expected(json!({ self.mode_key(): self.tools }))
            .actual(called_names(&calls))
            .violations(violations)
    }

    fn mode_key(&self) -> &'static str {
        match self.mode {
            SetMode::Required => "required",
            SetMode::Forbidden => "forbidden",
        }
    }
}

impl super::CheckRules for ToolSet {
    const KIND: Kind = Kind::new(
        "tool_set",
        "tools that must all be called, or that must not be",
    )
    .words(&[
        Word::new("required_tools", Arg::ToolList),
        Word::new("forbidden_tools", Arg::ToolList),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            required_tools(["a"]).succeeded().into_expectation(),
            forbidden_tools(["b"]).into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls]
    }

    /// Whether a pass rests on calls not made (a forbidden set).
    fn claims_absence(&self) -> bool {
        self.mode == SetMode::Forbidden
    }

    /// Required tools pass on calls seen; forbidden ones fail on them.
    fn unseen_calls(&self) -> super::Unseen {
        let forbidden = self.mode == SetMode::Forbidden;
        super::Unseen {
            pass_stands: !forbidden,
            fail_stands: forbidden,
        }
    }
}
