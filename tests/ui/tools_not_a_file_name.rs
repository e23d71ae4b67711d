use agent_test::prelude::*;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// `tools` takes a file name (a string) or a `json!` literal.
agent_test! {
    agent = my_agent();
    tools = 3;
    scenario search { user "hi"; }
}
