use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Functions taking text, given numbers.
agent_test! {
    agent = my_agent();
    scenario greeting {
        user "hi" {
            expect reply().contains(42);
            expect tool(7).arg("x", 1);
            expect reply().starts_with(1.5).id(3);
        }
    }
}
