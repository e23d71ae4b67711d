use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "pong" })
}

// Tools declared in the file the agent uses (relative to the crate: the UI runner builds this
// file in target/ui/ui_files, three levels below the repository).
agent_test! {
    agent = my_agent();
    tools = "../../../tests/ui_files/tools/tools.json";

    scenario refund {
        user "Refund ORD-9921" {
            expect tool("lookup_ordr").arg("order_id", "ORD-9921");
            expect tool("lookup_order").arg("orderid", "ORD-9921").arg("include_items", "yes");
            expect tool("process_refund").arg("amount", 12.5);
        }
    }
}
