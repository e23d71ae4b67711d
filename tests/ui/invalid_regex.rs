use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();

    scenario order_number_format {
        user "Where is my order?" {
            expect reply().matches(r"ORD-(\d{4}");
        }
        expect replies().not_matches("refund(?=ed)");
    }
}
