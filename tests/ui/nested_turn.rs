use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();

    scenario nested {
        user "first" {
            user "second";
            context { A: 1 }
        }
    }
}
