//! A check on what a sub-agent answered (see `agents.rs` for what an invocation is).

use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::agents::invokes;
use super::Outcome;
use crate::evaluate::context::{EvalContext, Target};
use crate::util::text::compact;

/// A check on what a sub-agent answered: the result of one of its calls contains a text,
/// case-sensitively (PromptKit's `agent_response_contains`). Build it with [`agent_response`].
/// Its calls are those named after it or its member tools `a2a__<name>__<tool>`, as for
/// [`AgentCheck`](super::AgentCheck); [`AgentResponseCheck::exact_name`] reads exact tool names only.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
/// let call = Call::tool("a2a__research_agent__search_papers", json!({"q": "qc"}))
///     .result(json!("Found: Quantum Computing Fundamentals (2021)"));
/// let t = Transcript::new(vec![Turn::new(0, "research", Reply::text("").call(call), 1)]);
/// let v = evaluate(&t, &[
///     agent_response("a2a__research_agent__search_papers").contains("Quantum Computing Fundamentals").into_expectation(),
///     agent_response("research_agent").contains("Quantum Computing Fundamentals").into_expectation(),
///     agent_response("a2a__research_agent__search_papers").contains("quantum computing").into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].status, Status::Pass);
/// assert_eq!(v[2].reason, "no matching agent response found containing expected text");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentResponseCheck {
    agent: String,
    contains: String,
    /// Match the exact tool name only, not `a2a__<name>__*` members.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    exact_name: bool,
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
            exact_name: false,
        }
    }
}

impl AgentResponseCheck {
    /// One line describing the check.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(agent_response("a").contains("x").describe(), r#"agent `a` responded with "x""#);
    /// ```
    pub fn describe(&self) -> String {
        format!("agent `{}` responded with {:?}", self.agent, self.contains)
    }

    /// Read only the calls named exactly like the agent, not its `a2a__<name>__<tool>` members
    /// (PromptKit's rule).
    ///
    /// See [`AgentResponseCheck`].
    pub fn exact_name(mut self) -> Self {
        self.exact_name = true;
        self
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if self.agent.is_empty() {
            return Outcome::error("compared nothing: the agent name is empty");
        }
        if self.contains.is_empty() {
            return Outcome::error("compared nothing: the text to look for is empty");
        }
        let responses: Vec<String> = cx
            .calls(Target::Any)
            .iter()
            .filter(|c| invokes(&self.agent, &c.name, self.exact_name))
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

impl super::CheckRules for AgentResponseCheck {
    const KIND: Kind = Kind::new(
        "agent_response",
        "what a sub-agent answered",
    )
    .words(&[
        Word::new("agent_response", Arg::Text),
        Word::new("contains", Arg::Text),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![agent_response("a").contains("x").into_expectation()]
    }

    fn reads(&self) -> &'static [Part] {
        &[Part::Calls, Part::Results]
    }
}
