use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Tools declared as Rust types: their names are checked at compile time.
type SearchArgs = agent_test::serde_json::Value;

agent_test! {
    agent = my_agent();
    tools { search_hotels: SearchArgs }

    scenario search {
        user "Find a hotel" {
            expect tool("search_hotel");
        }
    }
}
