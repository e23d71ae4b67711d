use agent_test::prelude::*;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();

    scenario nested {
        user "first" {
            user "second";
            context { A: 1 }
        }
    }
}
