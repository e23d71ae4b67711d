use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// An unknown argument name, at the top or nested.
agent_test! {
    agent = my_agent();
    tools = json!([
        {"type": "function", "function": {"name": "search_hotels", "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "guests": {"type": "integer"},
                "budget": {"type": "number"},
                "pets": {"type": "boolean"},
                "sort": {"type": "string", "enum": ["price", "rating"]},
                "dates": {"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}}}
            }
        }}},
        {"type": "function", "function": {"name": "book_hotel", "parameters": {
            "type": "object", "properties": {"hotel_id": {"type": "string"}}
        }}}
    ]);

    scenario search {
        user "Find a hotel in Madrid" {
            expect tool("search_hotels").arg("cty", "Madrid");
            expect tool("search_hotels").arg("dates.form", "2026-12-01");
            expect tool("search_hotels").args(json!({"city": "Madrid", "guest": 2}));
            expect node("planner").tool(tool("book_hotel").arg("hotel", "H-1"));
        }
    }
}
