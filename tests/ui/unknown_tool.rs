use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use agent_test::check::ArgsMode;

fn my_agent() -> impl Agent {
    agent_fn(|_req| async { "hi" })
}

// With declared tools, an unknown tool name is an error with a suggestion.
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
            expect tool("search_hotel");
            expect no_tool("bok_hotel");
        }
        expect tool_sequence(["search_hotels", "book_hotels"]);
        expect required_tools(["serch_hotels"]);
        expect trajectory([tool_call("search_hotels"), tool_call("cancel_hotel")]);
        expect trajectory([tool_call("search_hotels")]).args_mode_for("search_hotel", ArgsMode::Exact);
    }
}
