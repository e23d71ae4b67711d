use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A message of another type: a targeted error on the expression.
agent_test! {
    agent = my_agent();
    scenario greeting {
        let order_number: u32 = 9921;
        user order_number;
    }
}
