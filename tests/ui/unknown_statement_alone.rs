use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A word being typed before the next statement.
agent_test! {
    agent = my_agent();
    scenario greeting {
        us
        user "hi";
    }
}
