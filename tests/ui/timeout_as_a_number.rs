use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A timeout is a `Duration`.
agent_test! {
    agent = my_agent();
    timeout = 30;
    scenario greeting {
        timeout = 1.5;
        user "hi";
    }
}
