use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { r#"{"status": "ok"}"# })
}

agent_test! {
    agent = my_agent();

    scenario structured_answer {
        user "Give me the status as JSON" {
            expect json_path("$.data[?@.price <").exists();
            // Nested filters take exponential time to parse, deep brackets exhaust the stack.
            expect json_path("$[?@[?@[?@[?@[?@[?@[?@[?@[?@[?@[?@.a]]]]]]]]]]]").exists();
            expect schema(json!({"type": "objekt", "required": ["status"]}));
            expect field("status").is(matches_schema(json!({"type": "string", "minLength": "three"})));
            expect tool("lookup").arg("order_id", regex(r"^ORD-(\d{4}$"));
            expect jmespath("items[?price <").exists();
        }
    }
}
