use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A misspelt `scenario` is still read as one: its body is still type-checked.
agent_test! {
    agent = my_agent();
    scenaro greeting {
        user "hi";
        expect 42;
    }
}
