use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// `tools` takes a file name (a string) or a `json!` literal.
agent_test! {
    agent = my_agent();
    tools = 3;
    scenario search { user "hi"; }
}
