use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A tools file that does not exist.
agent_test! {
    agent = my_agent();
    tools = "no/such/tools.json";
    scenario search { user "hi"; }
}
