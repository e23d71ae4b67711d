use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// Every problem of a JSON Schema literal.
agent_test! {
    agent = my_agent();
    scenario structured {
        user "status as JSON" {
            expect schema(json!({"type": "objekt", "minProperties": -1, "required": "status"}));
        }
    }
}
