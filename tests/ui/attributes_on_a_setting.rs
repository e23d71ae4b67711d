use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Attributes and doc comments belong to scenarios.
agent_test! {
    /// The agent.
    agent = my_agent();
    scenario greeting { user "hi"; }
}
