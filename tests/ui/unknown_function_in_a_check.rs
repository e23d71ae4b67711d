use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A misspelt check function: rustc's error, on the name.
agent_test! {
    agent = my_agent();
    scenario greeting {
        user "hi" {
            expect replyy().contains("x");
        }
    }
}
