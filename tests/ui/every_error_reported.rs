use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();

    scenario many_problems {
        usr "hi";
        user "again" {
            expect reply().matches("[z-a]");
            expect tool("x").depends_on("nowhere");
        }
        sytem "be brief";
    }
}
