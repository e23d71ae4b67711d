agent_test! {
    agent = my_agent();
    tools = json!([{"type": "function", "function": {"name": "search", "parameters": {
        "type": "object", "properties": {"q": {"type": "string"}}
    }}}]);

    scenario search {
        user "find it" {
            expect tool("search").arg("q", "it");
        }
    }
}
