use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// `history` takes messages.
agent_test! {
    agent = my_agent();
    scenario greeting {
        history "hello";
        user "hi";
    }
}
