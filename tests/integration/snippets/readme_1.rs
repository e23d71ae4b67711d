// tests/support.rs
use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use agent_test::model::{Call, Reply};

/// Any async closure is an agent (so is any type implementing `agent_test::agent::Agent`).
fn support_agent() -> impl Agent {
    agent_fn(|req| async move {
        if req.input.contains("ORD-") {
            Reply::text("Order ORD-9921 was delivered yesterday.")
                .call(Call::tool("lookup_order", json!({"order_id": "ORD-9921"})))
        } else {
            Reply::text("Sure — what is your order number?")
        }
    })
}

agent_test! {
    agent = support_agent();

    /// The agent asks for the order number, then looks the order up.
    scenario order_lookup {
        user "Where is my order?" {
            expect no_tools();
            expect reply().contains("order number");
        }
        user "It's ORD-9921" {
            expect tool("lookup_order").arg("order_id", "ORD-9921");
        }
        expect no_tool("cancel_order");
    }
}
