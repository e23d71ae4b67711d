use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A pass rate no number of runs can prove, a confidence of 95 (not 0.95), and a price table
// given as a path.
agent_test! {
    agent = my_agent();
    repeat = 40;
    min_pass_rate = 1.0;
    prices = "prices.json";
    scenario greeting {
        min_pass_rate = (0.9, 95.0);
        user "hi";
    }
}
