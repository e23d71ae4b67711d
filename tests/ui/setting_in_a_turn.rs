use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use std::time::Duration;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Settings belong to the scenario's body, not to a turn's checks.
agent_test! {
    agent = my_agent();
    scenario greeting {
        user "hi" {
            timeout = Duration::from_secs(5);
            expect no_tools();
        }
    }
}
