use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A check method given the wrong type.
agent_test! {
    agent = my_agent();
    scenario greeting {
        user "hi" {
            expect tool("x").times("twice");
        }
    }
}
