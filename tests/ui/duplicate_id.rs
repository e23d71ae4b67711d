use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();

    scenario search {
        user "Find a hotel in Madrid" {
            expect tool("search_hotels").id("searched");
        }
        expect tool("search_hotels").arg("city", "Madrid").id("searched");
    }
}
