//! Every check, passing and failing, with its failure details.

mod agents;
mod calibration;
mod custom;
mod dependencies;
mod expressions;
mod hierarchy;
mod json;
mod judged;
mod matchers;
mod protocol;
mod repeats;
mod roads;
mod seed_gaps;
mod sequence;
mod snapshot;
mod structured_output;
mod text;
mod tool;
mod tool_list;
mod tool_set;
mod trajectory;
mod vacuity;
mod workflow;

use agent_test_runtime::check::{Expectation, IntoExpectation, Scope};
use agent_test_runtime::model::{Call, Reply, Transcript, Turn};
use agent_test_runtime::{Verdict, evaluate};

/// A transcript from (user input, reply) pairs.
pub fn transcript(turns: Vec<(&str, Reply)>) -> Transcript {
    Transcript::new(
        turns
            .into_iter()
            .enumerate()
            .map(|(i, (input, reply))| Turn::new(i, input, reply, 10))
            .collect(),
    )
}

/// A one-turn transcript.
pub fn one_turn(reply: Reply) -> Transcript {
    transcript(vec![("hi", reply)])
}

/// Evaluates one check at the given scope.
pub fn verdict(t: &Transcript, check: impl IntoExpectation, scope: Scope) -> Verdict {
    let mut e: Expectation = check.into_expectation();
    e.scope = scope;
    evaluate(t, &[e]).remove(0)
}

/// Evaluates one check on the whole conversation.
pub fn conv(t: &Transcript, check: impl IntoExpectation) -> Verdict {
    verdict(t, check, Scope::Conversation)
}

/// Evaluates one check on turn `i` (0-based).
pub fn turn(t: &Transcript, i: usize, check: impl IntoExpectation) -> Verdict {
    verdict(t, check, Scope::Turn(i))
}

/// A tool call.
pub fn tool_call(name: &str, args: serde_json::Value) -> Call {
    Call::tool(name, args)
}

/// A transcript whose "now" is pinned (Sunday 2026-11-22 09:30 UTC unless said otherwise).
pub fn pinned(turns: Vec<(&str, Reply)>, at: &str, tz: &str) -> Transcript {
    let mut t = transcript(turns);
    t.user_time = Some(
        agent_test_runtime::Clock::fixed(at)
            .now(tz)
            .expect("valid clock"),
    );
    t
}
