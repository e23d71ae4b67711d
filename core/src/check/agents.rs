//! Checks on sub-agents. A delegation is a call named after the agent (`research_agent`): a
//! tool call, or a node (an agent span of an OpenTelemetry trace, a sub-agent node of a
//! workflow); or an agent-member tool of it (`a2a__research_agent__search_papers`). An agent's
//! response is that call's result.

use agent_test_vocabulary::Kind;
use crate::model::Part;
use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::{Outcome, Violation};
use crate::evaluate::context::{EvalContext, Target};
use crate::model::Call;

/// Whether a call named `call` is an invocation of the agent `agent`: a call named exactly
/// that, or (unless `exact`) an agent-member tool `a2a__<agent>__<anything>`.
pub(super) fn invokes(agent: &str, call: &str, exact: bool) -> bool {
    call == agent
        || (!exact
            && call
                .strip_prefix("a2a__")
                .and_then(|rest| rest.strip_prefix(agent))
                .is_some_and(|member| member.starts_with("__")))
}

/// How many times `agent` was invoked by `calls` (every call in scope, nested ones included).
/// A call nested inside another call that invokes the same agent is the same delegation seen
/// twice — an agent used as a tool, with the agent's own `invoke_agent` node inside — and is
/// counted once.
fn invocations(calls: &[&Call], agent: &str, exact: bool) -> usize {
    let mut inner: HashSet<*const Call> = HashSet::new();
    for c in calls.iter().filter(|c| invokes(agent, &c.name, exact)) {
        for child in &c.children {
            child.walk(&mut |d| {
                if invokes(agent, &d.name, exact) {
                    inner.insert(d);
                }
            });
        }
    }
    calls
        .iter()
        .filter(|c| invokes(agent, &c.name, exact) && !inner.contains(&std::ptr::from_ref(**c)))
        .count()
}

/// A check that sub-agents were (or were not) invoked. Build it with [`agent_invoked`] or
/// [`agent_not_invoked`].
///
/// An agent name matches a call named exactly that — a tool call, or a node: the agent span of
/// an OpenTelemetry trace (`invoke_agent visa_agent`) is a node named `visa_agent` — or any of
/// the agent's member tools
/// `a2a__<name>__<tool>`: `agent_not_invoked(["visa_agent"])` fails when
/// `a2a__visa_agent__book` was called. A full member name (`a2a__visa_agent__book`) matches
/// that tool only. [`AgentCheck::exact_names`] matches exact tool names only (PromptKit's
/// rule). An empty list compares nothing: an error verdict.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// let reply = Reply::text("").call(Call::tool("a2a__research_agent__search_papers", json!({"q": "qubits"})));
/// let t = Transcript::new(vec![Turn::new(0, "research", reply, 1)]);
/// let v = evaluate(&t, &[
///     agent_invoked(["research_agent", "translation_agent"]).into_expectation(),
///     agent_invoked(["a2a__research_agent__search_papers"]).into_expectation(),
///     agent_not_invoked(["research_agent"]).into_expectation(),
///     agent_not_invoked(["research_agent"]).exact_names().into_expectation(),
/// ]);
/// assert_eq!(v[0].reason, "missing required agent invocations: translation_agent");
/// assert_eq!(v[1].status, Status::Pass);
/// assert_eq!(v[2].reason, "forbidden agents were invoked: research_agent");
/// assert_eq!(v[3].status, Status::Pass); // no tool is named exactly `research_agent`
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
    /// Match exact tool names only, not `a2a__<name>__*` members.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    exact_names: bool,
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
        exact_names: false,
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
        exact_names: false,
    }
}

impl AgentCheck {
    /// Each agent must be invoked at least `n` times (for [`agent_invoked`]). `n` must be at
    /// least 1, and the check one of [`agent_invoked`]: anything else is an impossible
    /// constraint, reported as an error verdict (never silently changed).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::evaluate;
    /// # use agent_test::check::Status;
    /// assert_eq!(agent_invoked(["a"]).min_calls(2).describe(), "agents invoked at least 2 times: a");
    /// let t = agent_test::model::Transcript::default();
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

    /// Match only calls named exactly as listed, not the agents' `a2a__<name>__<tool>` members
    /// (PromptKit's rule, where the names listed are the member tools themselves).
    ///
    /// See [`AgentCheck`].
    pub fn exact_names(mut self) -> Self {
        self.exact_names = true;
        self
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
        if self.agents.is_empty() {
            return Outcome::error("compared nothing: the list of agents is empty");
        }
        if self.agents.iter().any(String::is_empty) {
            return Outcome::error("compared nothing: an agent name in the list is empty");
        }
        let calls = cx.calls(Target::Any);
        let exact = self.exact_names;
        // The listed agent a call invokes (the first that matches), if any.
        let agent_of = |name: &str| {
            self.agents
                .iter()
                .find(|a| invokes(a, name, exact))
                .map(String::as_str)
        };
        let count = |agent: &str| invocations(calls, agent, exact);
        if self.min_calls == 0 {
            let mut called: Vec<&str> = Vec::new(); // each forbidden agent once, first invoked first
            let mut violations = Vec::new();
            for (i, c) in calls.iter().enumerate() {
                let Some(agent) = agent_of(&c.name) else {
                    continue;
                };
                if !called.contains(&agent) {
                    called.push(agent);
                }
                let mut evidence = Map::new();
                evidence.insert("agent".into(), Value::String(agent.to_owned()));
                if c.name != agent {
                    evidence.insert("tool".into(), Value::String(c.name.clone()));
                }
                evidence.insert("arguments".into(), c.arguments.clone());
                violations.push(
                    Violation::new("forbidden_agent", "forbidden agent was invoked")
                        .in_turn(cx.turn_of(Target::Any, i))
                        .evidence(Value::Object(evidence)),
                );
            }
            if violations.is_empty() {
                return Outcome::passed();
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

impl super::CheckRules for AgentCheck {
    const KIND: Kind = Kind::new(
        "agents",
        "sub-agents invoked, or not, and how often",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            agent_invoked(["a"]).min_calls(2).into_expectation(),
            agent_not_invoked(["b"]).into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls]
    }

    /// Why the check cannot be evaluated as written, if it cannot.
    fn problem(&self) -> Option<String> {
        self.refused.clone()
    }

    /// Whether a pass rests on invocations not made ([`agent_not_invoked`]).
    fn claims_absence(&self) -> bool {
        self.min_calls == 0
    }

    /// `agent_not_invoked` fails on invocations seen; `agent_invoked` passes on them.
    fn unseen_calls(&self) -> super::Unseen {
        super::Unseen {
            pass_stands: self.min_calls > 0,
            fail_stands: self.min_calls == 0,
        }
    }
}
