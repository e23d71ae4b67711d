//! Checks on sub-agents: delegations are tool calls named after the agent (PromptKit's
//! `a2a__research_agent__search_papers`), and an agent's response is that call's result.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{EvalContext, Outcome, Violation};
use crate::matcher::compact;

/// A check that sub-agents were (or were not) invoked. Build it with [`agent_invoked`] or
/// [`agent_not_invoked`].
///
/// ```
/// use agent_test_runtime::prelude::*;
/// use agent_test_runtime::model::{Call, Reply, Transcript, Turn};
/// let reply = Reply::text("").call(Call::tool("a2a__research_agent__search_papers", json!({"q": "qubits"})));
/// let t = Transcript::new(vec![Turn::new(0, "research", reply, 1)]);
/// let v = evaluate(&t, &[
///     agent_invoked(["a2a__research_agent__search_papers", "a2a__translation_agent__translate"]).into_expectation(),
///     agent_not_invoked(["a2a__admin_agent__execute"]).into_expectation(),
/// ]);
/// assert_eq!(v[0].reason, "missing required agent invocations: a2a__translation_agent__translate");
/// assert_eq!(v[1].status, Status::Pass);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentCheck {
    agents: Vec<String>,
    /// Minimum calls per agent; 0 means "must not be invoked".
    min_calls: usize,
    /// A `min_calls` the check cannot take (`agent_invoked(..).min_calls(0)`): the check is an
    /// error, and cannot be written as data.
    #[serde(
        default,
        skip_deserializing,
        skip_serializing_if = "Option::is_none",
        serialize_with = "refuse"
    )]
    refused: Option<String>,
}

/// A check the builder refused has no data form.
fn refuse<S: serde::Serializer>(refused: &Option<String>, _: S) -> Result<S::Ok, S::Error> {
    Err(serde::ser::Error::custom(format!(
        "impossible constraint: {}",
        refused.as_deref().unwrap_or_default()
    )))
}

/// Each listed agent was invoked (at least once; see [`AgentCheck::min_calls`]).
///
/// See [`AgentCheck`].
pub fn agent_invoked<S: Into<String>>(agents: impl IntoIterator<Item = S>) -> AgentCheck {
    AgentCheck {
        agents: agents.into_iter().map(Into::into).collect(),
        min_calls: 1,
        refused: None,
    }
}

/// No listed agent was invoked.
///
/// See [`AgentCheck`].
pub fn agent_not_invoked<S: Into<String>>(agents: impl IntoIterator<Item = S>) -> AgentCheck {
    AgentCheck {
        agents: agents.into_iter().map(Into::into).collect(),
        min_calls: 0,
        refused: None,
    }
}

impl AgentCheck {
    /// Each agent must be invoked at least `n` times (for [`agent_invoked`]). `n` must be at
    /// least 1, and the check one of [`agent_invoked`]: anything else is an impossible
    /// constraint, reported as an error verdict (never silently changed).
    ///
    /// ```
    /// # use agent_test_runtime::prelude::*;
    /// assert_eq!(agent_invoked(["a"]).min_calls(2).describe(), "agents invoked at least 2 times: a");
    /// let t = agent_test_runtime::model::Transcript::default();
    /// let v = evaluate(&t, &[agent_invoked(["a"]).min_calls(0).into_expectation()]);
    /// assert_eq!(v[0].status, Status::Error);
    /// assert_eq!(v[0].reason, "impossible constraint: agent_invoked(..).min_calls(0) can never \
    ///     fail: to require that an agent is not invoked, use agent_not_invoked(..)");
    /// ```
    pub fn min_calls(mut self, n: usize) -> Self {
        if self.min_calls == 0 {
            self.refused = Some(format!(
                "agent_not_invoked(..).min_calls({n}) says two things: use agent_invoked(..).min_calls({n}) or agent_not_invoked(..) alone"
            ));
        } else if n == 0 {
            self.refused = Some(
                "agent_invoked(..).min_calls(0) can never fail: to require that an agent is not \
                 invoked, use agent_not_invoked(..)"
                    .to_owned(),
            );
        } else {
            self.min_calls = n;
        }
        self
    }

    /// Why the check cannot be evaluated as written, if it cannot.
    pub(crate) fn problem(&self) -> Option<String> {
        self.refused.clone()
    }

    /// One line describing the check.
    ///
    /// See [`AgentCheck::min_calls`].
    pub fn describe(&self) -> String {
        match self.min_calls {
            0 => format!("agents not invoked: {}", self.agents.join(", ")),
            1 => format!("agents invoked: {}", self.agents.join(", ")),
            n => format!(
                "agents invoked at least {n} times: {}",
                self.agents.join(", ")
            ),
        }
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let calls = cx.tool_calls();
        let count = |name: &str| calls.iter().filter(|c| c.name == name).count();
        if self.min_calls == 0 {
            let violations: Vec<Violation> = calls
                .iter()
                .enumerate()
                .filter(|(_, c)| self.agents.contains(&c.name))
                .map(|(i, c)| {
                    Violation::new("forbidden_agent", "forbidden agent was invoked")
                        .in_turn(cx.turn_of_call(i))
                        .evidence(json!({"agent": c.name, "arguments": c.arguments}))
                })
                .collect();
            if violations.is_empty() {
                return Outcome::passed();
            }
            // Each forbidden agent once, in the order first invoked.
            let mut called: Vec<&str> = Vec::new();
            for c in calls.iter().filter(|c| self.agents.contains(&c.name)) {
                if !called.contains(&c.name.as_str()) {
                    called.push(&c.name);
                }
            }
            return Outcome::fail(format!(
                "forbidden agents were invoked: {}",
                called.join(", ")
            ))
            .violations(violations);
        }
        let requirements: Vec<_> = self
            .agents
            .iter()
            .map(|a| json!({"agent": a, "calls": count(a), "requiredCalls": self.min_calls}))
            .collect();
        let missing: Vec<&str> = self
            .agents
            .iter()
            .filter(|a| count(a) < self.min_calls)
            .map(String::as_str)
            .collect();
        if missing.is_empty() {
            Outcome::passed()
        } else {
            Outcome::fail(format!(
                "missing required agent invocations: {}",
                missing.join(", ")
            ))
            .actual(json!({"requirements": requirements}))
            .violations(missing.iter().map(|a| {
                Violation::new(
                    "missing_agent",
                    format!("`{a}` was invoked {} times", count(a)),
                )
            }))
        }
    }
}

/// A check on what a sub-agent answered: the result of one of its calls contains a text,
/// case-sensitively (PromptKit's `agent_response_contains`). Build it with [`agent_response`].
///
/// ```
/// use agent_test_runtime::prelude::*;
/// use agent_test_runtime::model::{Call, Reply, Transcript, Turn};
/// let call = Call::tool("a2a__research_agent__search_papers", json!({"q": "qc"}))
///     .result(json!("Found: Quantum Computing Fundamentals (2021)"));
/// let t = Transcript::new(vec![Turn::new(0, "research", Reply::text("").call(call), 1)]);
/// let v = evaluate(&t, &[
///     agent_response("a2a__research_agent__search_papers").contains("Quantum Computing Fundamentals").into_expectation(),
///     agent_response("a2a__research_agent__search_papers").contains("quantum computing").into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].reason, "no matching agent response found containing expected text");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentResponseCheck {
    agent: String,
    contains: String,
}

/// Selects a sub-agent's responses; finish with [`AgentResponse::contains`].
///
/// See [`AgentResponseCheck`].
pub fn agent_response(agent: impl Into<String>) -> AgentResponse {
    AgentResponse {
        agent: agent.into(),
    }
}

/// A sub-agent's responses, selected by [`agent_response`].
#[derive(Clone, Debug)]
pub struct AgentResponse {
    agent: String,
}

impl AgentResponse {
    /// Some response of the agent contains `text` (case-sensitive).
    ///
    /// See [`AgentResponseCheck`].
    pub fn contains(self, text: impl Into<String>) -> AgentResponseCheck {
        AgentResponseCheck {
            agent: self.agent,
            contains: text.into(),
        }
    }
}

impl AgentResponseCheck {
    /// One line describing the check.
    ///
    /// ```
    /// # use agent_test_runtime::prelude::*;
    /// assert_eq!(agent_response("a").contains("x").describe(), r#"agent `a` responded with "x""#);
    /// ```
    pub fn describe(&self) -> String {
        format!("agent `{}` responded with {:?}", self.agent, self.contains)
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let responses: Vec<String> = cx
            .tool_calls()
            .iter()
            .filter(|c| c.name == self.agent)
            .filter_map(|c| c.result.as_ref())
            .map(|r| r.as_str().map_or_else(|| compact(r), str::to_owned))
            .collect();
        if responses.iter().any(|r| r.contains(&self.contains)) {
            return Outcome::passed();
        }
        Outcome::fail("no matching agent response found containing expected text")
            .expected(json!({"agent": self.agent, "expected_substr": self.contains}))
            .actual(json!(responses))
    }
}
