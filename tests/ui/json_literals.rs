use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

agent_test! {
    agent = my_agent();

    scenario refund {
        user "Refund ORD-9921" {
            expect tool("process_refund").args(json!({"order_id": "ORD-9921", "order_id": "ORD-1"}));
            expect tool("process_refund").arg("order_id", json!({"regex": "^ORD-"}));
            expect tool("process_refund").arg("order_id", regex("^ORD-"));
            expect tool("process_refund").arg("note", exact(json!({"regex": "^ORD-"})));
        }
    }
}
