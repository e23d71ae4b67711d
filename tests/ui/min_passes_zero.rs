use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Zero passes required.
agent_test! {
    agent = my_agent();
    min_passes = 0;
    scenario greeting { user "hi"; }
}
