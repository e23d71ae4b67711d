use agent_test::prelude::*;
use agent_test::agent::agent_fn;

// Tags that are not words, or are listed twice, in the suite and in a scenario.
agent_test! {
    agent = agent_fn(|_req| async { "ok" });
    tags = ["billing", "needs review", "billing"];

    scenario tagged {
        tags = ["", "a,b"];
        user "hi";
    }
}

fn main() {}
