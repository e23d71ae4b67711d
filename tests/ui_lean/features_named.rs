use agent_test::prelude::*;
use agent_test::agent::{ChatAgent, HttpAgent, agent_fn};

// Without agent-test's features, what each would give is an error naming the feature to
// enable, on the call: never "cannot find function" or a check that fails when the test runs.
fn checks() {
    let _ = schema(json!({"type": "object"}));
    let _ = field("total").is(matches_schema(json!({"type": "number"})));
    let _ = json_path("$.status").equals("ok");
    let _ = jmespath("items[0]").exists();
}

fn agents() {
    let _ = HttpAgent::post("http://127.0.0.1:8080/chat");
    let _ = ChatAgent::new("gpt-4o-mini");
    let _ = agent_test::agent::McpServer::stdio("python3 -m shop_mcp");
    let _ = agent_test::agent::traced(agent_fn(|_req| async { "hi" }));
}

agent_test! {
    agent = agent_fn(|_req| async { "hi" });
    files "tests/cases/*.json";

    scenario greeting {
        user "hi";
    }
}

fn main() {}
