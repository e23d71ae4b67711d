//! Playing a recorded run back, turn by turn.

use super::{Agent, AgentError, AgentRequest, BoxFuture};
use agent_test_core::model::{Reply, Transcript};

/// An agent that answers each turn with what a recorded run answered, so any scenario can be
/// evaluated on a recording without calling anything. Turn `n` gets the recording's turn `n`
/// (with its latency; a turn recorded without one is *not measured*, so latency checks on it
/// are errors, not a replay's ~0 ms); a turn the recording does not have, or one on which the recorded agent
/// failed, is an agent error.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::{ScenarioRun, Suite};
/// use agent_test::model::Reply;
/// use agent_test::agent::ReplayAgent;
/// use agent_test::model::{Transcript, Turn};
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let recording = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 120)]);
/// let mut run = ScenarioRun::new(Suite::new().agent(ReplayAgent::new(recording)), "replayed");
/// run.user("hi").await;
/// run.expect_turn(reply().contains("hello"));
/// assert!(run.report().await.passed());
/// # });
/// ```
#[derive(Clone, Debug)]
pub struct ReplayAgent {
    recording: Transcript,
}

impl ReplayAgent {
    /// Replays `recording`.
    ///
    /// See the type's example.
    pub fn new(recording: Transcript) -> Self {
        ReplayAgent { recording }
    }

    /// Replays the run read from `path` by [`load::run`](agent_test_readers::load::run): a recorded run, a
    /// JSON report, or a trace in any format `agent-test eval` reads.
    ///
    /// ```
    /// # use agent_test::agent::ReplayAgent;
    /// assert!(ReplayAgent::from_file("no/such/run.json").is_err());
    /// ```
    pub fn from_file(
        path: impl AsRef<std::path::Path>,
    ) -> Result<Self, agent_test_core::util::input::LoadError> {
        agent_test_readers::load::run(path, None).map(|r| ReplayAgent::new(r.transcript))
    }
}

impl Agent for ReplayAgent {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        let result = match self.recording.turns.get(request.turn) {
            None => Err(AgentError::new(format!(
                "the recording has {} turn(s); turn {} was not recorded",
                self.recording.turns.len(),
                request.turn + 1
            ))),
            Some(t) => match &t.error {
                Some(e) => Err(AgentError::new(format!("the recorded agent failed: {e}"))
                    .with_partial(t.reply.clone())),
                None => {
                    let mut reply = t.reply.clone();
                    reply.latency_ms = t.latency_ms;
                    Ok(reply)
                }
            },
        };
        Box::pin(async move { result })
    }

    /// Replaying takes no time worth measuring: a turn has the recorded latency or none.
    fn runner_measures_latency(&self) -> bool {
        false
    }
}
