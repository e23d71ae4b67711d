use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Anything but a setting, `scenario`, `context` or `files` at the top.
agent_test! {
    agent = my_agent();
    42;
    scenario greeting { user "hi"; }
}
