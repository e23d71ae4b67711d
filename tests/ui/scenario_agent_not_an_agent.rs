use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A scenario's own agent must be an agent too.
agent_test! {
    agent = my_agent();
    scenario greeting {
        agent = 5;
        user "hi";
    }
}
