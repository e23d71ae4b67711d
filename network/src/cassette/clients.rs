//! agent-test's own model clients through a cassette: `ChatAgent::cassette` and
//! `Judge::cassette` point them at the proxy.

use super::mode::Mode;
use super::running::RunningCassette;
use crate::agent::ChatAgent;
use crate::judge::Judge;

/// The key a replaying client sends: a replay forwards nothing, so no real key is needed, and
/// none should be sent even to 127.0.0.1.
const REPLAY_KEY: &str = "agent-test-cassette-replay";

impl ChatAgent {
    /// Sends the model calls through a running cassette: the base URL becomes the proxy's,
    /// and in replay the key becomes a placeholder (nothing is forwarded, so CI needs no
    /// key). Recording keeps the agent's key (set it, or `OPENAI_API_KEY`, before this), which
    /// the proxy forwards and never stores. Each turn's entries are listed in the scenario's
    /// report (`cassette`); a request with no recording fails the turn with the closest
    /// recorded request and where it differs.
    ///
    /// ```
    /// use agent_test::cassette::{Cassette, Mode};
    /// use agent_test::prelude::*;
    /// use agent_test::agent::ChatAgent;
    /// let dir = std::env::temp_dir().join(format!("agent-test-doc-chat-{}", std::process::id()));
    /// let cassette = Cassette::new(&dir).mode(Mode::Record).start().unwrap();
    /// let agent = ChatAgent::new("gpt-4o-mini").system("You are Acme's support agent.").cassette(&cassette);
    /// assert!(format!("{agent:?}").contains(&cassette.base_url()));
    /// ```
    pub fn cassette(self, cassette: &RunningCassette) -> Self {
        let agent = self.base_url(cassette.base_url());
        match cassette.mode() {
            Mode::Replay => agent.api_key(REPLAY_KEY),
            _ => agent,
        }
    }
}

impl Judge {
    /// Sends the judge's model calls through a running cassette (an OpenAI or Anthropic judge:
    /// its model is rebuilt at the proxy's base URL with the environment's key, as
    /// [`Judge::base_url`] does; a judge on your own [`JudgeModel`](crate::judge::JudgeModel)
    /// is left as it is). The judge's entries are listed in the scenario's report with the
    /// agent's. Its verdict cache still answers first: to send every grading through the
    /// cassette, set `.mode(JudgeMode::Off)`.
    ///
    /// ```
    /// use agent_test::cassette::{ANTHROPIC_UPSTREAM, Cassette, Mode};
    /// use agent_test::judge::Judge;
    /// let dir = std::env::temp_dir().join(format!("agent-test-doc-judge-{}", std::process::id()));
    /// let cassette = Cassette::new(&dir).mode(Mode::Record).upstream(ANTHROPIC_UPSTREAM).start().unwrap();
    /// let judge = Judge::anthropic("claude-3-5-haiku-20241022").cassette(&cassette);
    /// assert_eq!(judge.model_id(), "anthropic:claude-3-5-haiku-20241022");
    /// ```
    pub fn cassette(self, cassette: &RunningCassette) -> Self {
        self.base_url(cassette.base_url())
    }
}
