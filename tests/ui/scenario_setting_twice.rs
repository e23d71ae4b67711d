use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A scenario setting given twice.
agent_test! {
    agent = my_agent();
    scenario greeting {
        repeat = 2;
        repeat = 3;
        user "hi";
    }
}
