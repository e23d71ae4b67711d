use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// The `;` missing after a turn: the error is where it belongs.
agent_test! {
    agent = my_agent();
    scenario greeting {
        user "hi"
        expect no_tools();
    }
}
