use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Settings only a suite takes.
agent_test! {
    agent = my_agent();
    scenario greeting {
        report_dir = "target/elsewhere";
        tools = "tools.json";
        user "hi";
    }
}
