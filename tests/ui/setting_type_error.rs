use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A setting's value of the wrong type: rustc's error, on the value.
fn seconds() -> u64 {
    30
}

agent_test! {
    agent = my_agent();
    scenario greeting {
        timeout = seconds();
        user "hi";
    }
}
