use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// `tools { name: Type }` entries.
agent_test! {
    agent = my_agent();
    tools { search_hotels, "book": , 42: String }

    scenario book {
        user "Book H-1";
    }
}
