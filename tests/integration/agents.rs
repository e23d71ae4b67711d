//! Small agents for the tests.

use std::time::Duration;

use agent_test::agent::{Agent, AgentRequest, agent_fn};
use agent_test::model::Reply;
use agent_test::prelude::*;

/// Replies with what it was given: the input, the context and the roles of the messages.
pub fn echo_agent() -> impl Agent {
    agent_fn(|req: AgentRequest| async move {
        let roles: Vec<&str> = req.messages.iter().map(|m| m.role.as_str()).collect();
        format!(
            "input={} | context={} | roles={} | turn={}",
            req.input,
            json!(req.context),
            roles.join(","),
            req.turn
        )
    })
}

/// Answers from a script: the n-th turn gets the n-th reply (the last one repeats).
pub fn scripted(replies: Vec<Reply>) -> impl Agent {
    agent_fn(move |req: AgentRequest| {
        let reply = replies
            .get(req.turn)
            .or(replies.last())
            .cloned()
            .unwrap_or_default();
        async move { reply }
    })
}

/// Fails, panics or hangs depending on the input.
pub fn flaky_agent() -> impl Agent {
    agent_fn(|req: AgentRequest| async move {
        match req.input.as_str() {
            "fail" => Err("upstream returned garbage".to_owned()),
            "panic" => panic!("agent bug: index out of bounds"),
            "hang" => {
                tokio::time::sleep(Duration::from_secs(30)).await;
                Ok(Reply::text("too late"))
            }
            "empty" => Ok(Reply::text("")),
            "huge" => Ok(Reply::text("word ".repeat(400_000))),
            other => Ok(Reply::text(format!("ok: {other}"))),
        }
    })
}
