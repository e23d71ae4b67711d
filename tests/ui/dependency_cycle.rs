use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();

    scenario cyclic {
        user "hi";
        expect tool("a").id("first").depends_on("second");
        expect tool("b").id("second").depends_on("first");
        expect tool("c").id("alone").depends_on("alone");
    }
}
