use agent_test::prelude::*;
use agent_test::simulated_user;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();
    repeat = 3;
    min_passes = 4;

    scenario counts {
        user "hi" {
            expect tool("search").between(5, 1);
            expect agent_invoked(["research_agent"]).min_calls(0);
            expect http_status(1000);
        }
        simulate simulated_user("get a refund").turns(5..=2);
    }

    scenario never_run {
        repeat = 0;
        user "hi";
    }

    scenario nothing_tested {}
}
