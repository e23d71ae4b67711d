use agent_test::prelude::*;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A scenario setting given twice.
agent_test! {
    agent = my_agent();
    scenario greeting {
        repeat = 2;
        repeat = 3;
        user "hi";
    }
}
