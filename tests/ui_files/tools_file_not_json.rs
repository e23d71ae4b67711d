use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "pong" })
}

// A tools file that is not JSON.
agent_test! {
    agent = my_agent();
    tools = "../../../tests/ui_files/tools/not_json.json";

    scenario refund {
        user "Refund ORD-9921";
    }
}
