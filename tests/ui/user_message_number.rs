use agent_test::prelude::*;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A user message is text.
agent_test! {
    agent = my_agent();
    scenario greeting {
        user 42;
        system true;
    }
}
