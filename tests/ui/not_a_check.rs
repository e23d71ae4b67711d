use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Type errors inside a scenario's body: each on the user's expression.
agent_test! {
    agent = my_agent();

    scenario wrong_checks {
        user "hi" {
            expect reply();
        }
        expect 42;
    }
}
