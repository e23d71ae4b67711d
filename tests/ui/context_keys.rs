use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Context keys are identifiers or strings.
agent_test! {
    agent = my_agent();
    context { 42: "x", (a): 1 }
    scenario greeting { user "hi"; }
}
