use agent_test::prelude::*;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Attributes on DSL statements.
agent_test! {
    agent = my_agent();
    scenario greeting {
        #[allow(unused)]
        user "hi";
    }
}
