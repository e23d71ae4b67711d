use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// `x = ..` naming a local is Rust, not a misspelt setting: rustc's own error here.
agent_test! {
    agent = my_agent();
    scenario greeting {
        let mut timer = 1;
        timer = "two";
        user "hi";
    }
}
