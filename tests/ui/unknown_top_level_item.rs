use agent_test::prelude::*;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Anything but a setting, `scenario`, `context` or `files` at the top.
agent_test! {
    agent = my_agent();
    42;
    scenario greeting { user "hi"; }
}
