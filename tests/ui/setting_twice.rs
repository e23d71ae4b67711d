use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use std::time::Duration;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A suite setting given twice.
agent_test! {
    agent = my_agent();
    timeout = Duration::from_secs(5);
    timeout = Duration::from_secs(9);
    scenario greeting { user "hi"; }
}
