use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Options turn a check into an `Expectation`: they go last.
agent_test! {
    agent = my_agent();
    scenario search {
        user "Find a hotel" {
            expect tool("search_hotels").warning().arg("city", "Madrid");
            expect reply().id("listed").contains("hotel");
        }
    }
}
