//! No call repeated: no tool called again with the same arguments — the loop an agent falls
//! into when it does not see, or does not believe, a result it already has.

use agent_test_vocabulary::Kind;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::calls::of_tools::{OfTools, distinct_names};
use super::{Outcome, Violation};
use crate::evaluate::context::EvalContext;
use crate::matcher::json_eq;
use crate::model::{Call, Part};
use crate::util::text::compact;

/// A check that no tool was called more often than allowed with the same arguments (once,
/// unless [`at_most`](NoRepeatedCalls::at_most) says). Build it with [`no_repeated_calls`].
///
/// Arguments are the same when they are equal as JSON (keys in any order, `1` and `1.0`
/// alike). A retry of a failed call with the same arguments is a repeat too — the same input
/// to the same tool; `at_most(2)` allows one. Each repeated call is its own violation, with
/// every position it was made at.
///
/// It asserts an absence: with turns but no repeat it passes (with no call at all, too); with
/// no turn at all it is an error ("no turn ran"), over a turn on which the agent failed it
/// cannot confirm the absence, and beside trace spans nobody could read (calls nobody saw) its
/// pass is not measured — a repeat seen, though, fails whatever else happened.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// let reply = Reply::text("Still looking.")
///     .call(Call::tool("search", json!({"q": "flights", "max": 5})))
///     .call(Call::tool("search", json!({"max": 5.0, "q": "flights"})))
///     .call(Call::tool("search", json!({"q": "trains"})));
/// let t = Transcript::new(vec![Turn::new(0, "go", reply, 1)]);
/// let v = evaluate(&t, &[
///     no_repeated_calls().into_expectation(),
///     no_repeated_calls().at_most(2).into_expectation(),
///     no_repeated_calls().of_tools(["book"]).into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Fail);
/// assert_eq!(v[0].reason, "1 call repeated: search");
/// assert_eq!(v[0].details.violations[0].message,
///            r#"`search` called 2 times with the same arguments {"max":5,"q":"flights"} (at most 1), at conversation positions 0 and 1"#);
/// assert_eq!(v[1].status, Status::Pass);
/// assert_eq!(v[2].status, Status::Pass);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoRepeatedCalls {
    #[serde(default, skip_serializing_if = "OfTools::is_every_tool")]
    tools: OfTools,
    #[serde(default = "once", skip_serializing_if = "is_once")]
    at_most: usize,
}

fn once() -> usize {
    1
}

fn is_once(n: &usize) -> bool {
    *n == 1
}

/// No tool called again with the same arguments (an agent looping on a call).
///
/// See [`NoRepeatedCalls`].
pub fn no_repeated_calls() -> NoRepeatedCalls {
    NoRepeatedCalls {
        tools: OfTools::default(),
        at_most: 1,
    }
}

impl NoRepeatedCalls {
    /// Only calls of these tools count (a lookup may be repeated, a payment may not).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(no_repeated_calls().of_tools(["pay"]).describe(),
    ///            "no call of pay repeated with the same arguments");
    /// ```
    pub fn of_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.tools = OfTools::new(tools);
        self
    }

    /// The same call (tool and arguments) may be made up to `n` times: `at_most(2)` allows
    /// one retry. `at_most(0)` would forbid every call: an impossible constraint (write
    /// `no_tools()` or `no_tool(..)`).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(no_repeated_calls().at_most(2).describe(),
    ///            "no tool called more than 2 times with the same arguments");
    /// ```
    pub fn at_most(mut self, n: usize) -> Self {
        self.at_most = n;
        self
    }

    /// One line describing the check.
    ///
    /// See [`NoRepeatedCalls::of_tools`].
    pub fn describe(&self) -> String {
        match (self.tools.is_every_tool(), self.at_most) {
            (true, 1) => "no tool called twice with the same arguments".to_owned(),
            (true, n) => format!("no tool called more than {n} times with the same arguments"),
            (false, 1) => format!("{} repeated with the same arguments", self.tools.no_call()),
            (false, n) => format!(
                "{} more than {n} times with the same arguments",
                self.tools.no_call()
            ),
        }
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let Some(problem) = self.tools.problem() {
            return Outcome::error(problem);
        }
        let calls = cx.tool_calls();
        // Each distinct call (name and arguments) with the positions it was made at.
        let mut distinct: Vec<(&Call, Vec<usize>)> = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            if !self.tools.admits(&c.name) {
                continue;
            }
            match distinct
                .iter_mut()
                .find(|(d, _)| d.name == c.name && json_eq(&d.arguments, &c.arguments))
            {
                Some((_, at)) => at.push(i),
                None => distinct.push((c, vec![i])),
            }
        }
        let repeated: Vec<&(&Call, Vec<usize>)> = distinct
            .iter()
            .filter(|(_, at)| at.len() > self.at_most)
            .collect();
        if repeated.is_empty() {
            return Outcome::passed();
        }
        let violations = repeated.iter().map(|(c, at)| {
            let first = at.first().copied().unwrap_or_default();
            Violation::new(
                "repeated_call",
                format!(
                    "`{}` called {} times with the same arguments {} (at most {}), at {}",
                    c.name,
                    at.len(),
                    compact(&c.arguments),
                    self.at_most,
                    cx.positions_name(at),
                ),
            )
            .in_turn(cx.turn_of_call(first))
            .evidence(json!({"tool": c.name, "arguments": c.arguments, "positions": at}))
        });
        let names = distinct_names(repeated.iter().map(|(c, _)| *c));
        Outcome::fail(format!(
            "{} call{} repeated: {}",
            repeated.len(),
            if repeated.len() == 1 { "" } else { "s" },
            names.join(", ")
        ))
        .expected(json!({"at_most": self.at_most}))
        .actual(Value::Array(
            repeated
                .iter()
                .map(|(c, at)| json!({"tool": c.name, "arguments": c.arguments, "times": at.len()}))
                .collect(),
        ))
        .violations(violations)
    }
}

impl super::CheckRules for NoRepeatedCalls {
    const KIND: Kind = Kind::new(
        "no_repeated_calls",
        "no tool called again with the same arguments (an agent looping)",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            no_repeated_calls()
                .of_tools(["a"])
                .at_most(2)
                .into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls, Part::Arguments]
    }

    fn problem(&self) -> Option<String> {
        (self.at_most == 0).then(|| {
            "at_most(0) can never pass once a tool is called: write no_tools() or no_tool(..)"
                .to_owned()
        })
    }

    /// A pass rests on repeats not having happened.
    fn claims_absence(&self) -> bool {
        true
    }

    /// A repeat seen is a failure whatever else happened.
    fn unseen_calls(&self) -> super::Unseen {
        super::Unseen::FAILURE_STANDS
    }
}
