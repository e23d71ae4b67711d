use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// A literal of the wrong JSON type for the declared argument.
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
            expect tool("search_hotels").arg("guests", "two");
            expect tool("search_hotels").arg("city", 42);
            expect tool("search_hotels").arg("pets", "yes").arg("budget", 120);
            expect tool("search_hotels").arg("sort", "cheapest");
            expect tool("search_hotels").args(json!({"guests": 2.5}));
        }
    }
}
