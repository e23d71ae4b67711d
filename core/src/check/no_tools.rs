//! A check that no tool at all was called.

use agent_test_vocabulary::Kind;
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::calls::pairing::{call_violation, called_names, counted_calls, successful_only};
use super::Outcome;
use crate::evaluate::context::EvalContext;

/// A check that no tool at all was called. Build it with [`no_tools`].
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
///
/// let reply = Reply::text("").call(Call::tool("search", serde_json::json!({"q": "x"})));
/// let t = Transcript::new(vec![Turn::new(0, "hi", reply, 1)]);
/// let v = evaluate(&t, &[no_tools().into_expectation()]);
/// assert_eq!(v[0].reason, "expected no tool call, but 1 tool was called: search");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoTools {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    succeeded: bool,
}

/// No tool may be called at all.
///
/// ```
/// use agent_test::prelude::*;
/// assert_eq!(no_tools().describe(), "no tool called");
/// ```
pub fn no_tools() -> NoTools {
    NoTools::default()
}

impl NoTools {
    /// Ignore calls that failed (a failed call then does not count as a call).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(no_tools().succeeded().describe(), "no tool called (successful calls only)");
    /// ```
    pub fn succeeded(mut self) -> Self {
        self.succeeded = true;
        self
    }

    /// One line describing the check.
    ///
    /// See [`no_tools`].
    pub fn describe(&self) -> String {
        let suffix = successful_only(self.succeeded);
        format!("no tool called{suffix}")
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let calls = counted_calls(cx, self.succeeded);
        if calls.is_empty() {
            return Outcome::passed();
        }
        let names: Vec<&str> = calls.iter().map(|(_, c)| c.name.as_str()).collect();
        let reason = format!(
            "expected no tool call, but {} tool{} called: {}",
            calls.len(),
            if calls.len() == 1 { " was" } else { "s were" },
            names.join(", ")
        );
        let violations = calls.iter().map(|&(i, c)| {
            let message = format!("`{}` was called at {}", c.name, cx.position_name(i));
            call_violation(cx, "unexpected_call", message, i, c.arguments.clone())
        });
        Outcome::fail(reason)
            .expected(json!([]))
            .actual(called_names(&calls))
            .violations(violations)
    }
}

impl super::CheckRules for NoTools {
    const KIND: Kind = Kind::new(
        "no_tools",
        "no tool called at all",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![no_tools().succeeded().into_expectation()]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls]
    }

    fn claims_absence(&self) -> bool {
        true
    }

    /// A call seen fails it whatever else happened.
    fn unseen_calls(&self) -> super::Unseen {
        super::Unseen::FAILURE_STANDS
    }
}
