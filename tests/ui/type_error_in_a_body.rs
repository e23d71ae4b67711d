use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Rust between steps is type-checked like any test body.
agent_test! {
    agent = my_agent();
    scenario greeting {
        let turn = user "hi";
        let words: u32 = turn.reply.text;
    }
}
