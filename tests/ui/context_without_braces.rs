use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// `context` needs its `{ ... }`.
agent_test! {
    agent = my_agent();
    scenario greeting {
        context USER_ID: 1;
        user "hi";
    }
}
