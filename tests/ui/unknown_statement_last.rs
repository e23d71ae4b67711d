use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A misspelt word at the end of a body and of a turn: said as a statement of agent_test!, not
// as Rust's "cannot find value".
agent_test! {
    agent = my_agent();
    scenario greeting {
        user "hi" {
            expct
        }
        expet
    }
}
