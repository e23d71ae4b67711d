use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A declaration the macro cannot read.
agent_test! {
    agent = my_agent();
    tools = json!([{"type": "function", "function": {"description": "no name"}}]);
    scenario search { user "hi"; }
}
