use agent_test::prelude::*;
use agent_test::agent::agent_fn;

// Declared tools are checked against their JSON Schemas: without agent-test's `schema`
// feature, declaring them is an error naming it, not a failure of every scenario at run time.
agent_test! {
    agent = agent_fn(|_req| async { "hi" });
    tools = json!([{"type": "function", "function": {
        "name": "lookup_order",
        "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}
    }}]);

    scenario greeting {
        user "hi" {
            expect tool("lookup_order").arg("order_id", "ORD-1");
        }
    }
}

fn main() {}
