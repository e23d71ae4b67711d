use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use std::time::Duration;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Scenario settings are checked like the suite's.
agent_test! {
    agent = my_agent();
    scenario greeting {
        timout = Duration::from_secs(5);
        user "hi";
    }
}
