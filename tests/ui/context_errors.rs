use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();
    context { USER_ID: 12345, USER_ID: 6789 }

    scenario ctx {
        context { PLAN "premium", TIER: }
        user "hi";
    }
}
