use agent_test::prelude::*;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// An attribute at the end of a body.
agent_test! {
    agent = my_agent();
    scenario greeting {
        user "hi";
        #[allow(unused)]
    }
}
