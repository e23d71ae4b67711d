use std::sync::OnceLock;

use agent_test::prelude::*;
use agent_test::agent::ChatAgent;
use agent_test::judge::{Judge, JudgeMode};
use agent_test::serde_json::Value;
use axum::{Json, Router, routing::post};

/// A fake OpenAI-compatible server on 127.0.0.1, started once per test binary: the agent's
/// model under `/agent/v1`, the judge's under `/judge/v1`.
fn fake_server() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        let url = format!("http://{}", listener.local_addr().expect("an address"));
        listener.set_nonblocking(true).expect("a non-blocking socket");
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
            runtime.expect("a tokio runtime").block_on(async move {
                let app = Router::new()
                    .route("/agent/v1/chat/completions", post(agent_model))
                    .route("/judge/v1/chat/completions", post(judge_model));
                let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
                axum::serve(listener, app).await.expect("the fake server runs");
            });
        });
        url
    })
}

/// A chat completion with `message` as its answer.
fn completion(message: Value) -> Json<Value> {
    Json(json!({
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 60, "completion_tokens": 12}
    }))
}

/// The agent's model: looks the order up first, then answers from the tool's result.
async fn agent_model(Json(request): Json<Value>) -> Json<Value> {
    let messages = request["messages"].as_array().cloned().unwrap_or_default();
    match messages.iter().find(|m| m["role"] == "tool") {
        None => completion(json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": "call_1", "type": "function",
            "function": {"name": "lookup_order", "arguments": "{\"order_id\":\"ORD-9921\"}"}
        }]})),
        Some(result) => {
            let status = result["content"].as_str().unwrap_or("unknown");
            completion(json!({"role": "assistant",
                "content": format!("Sorry for the wait! Your order is {status}.")}))
        }
    }
}

/// The judge's model: every check in the batch passes when the reply apologises.
async fn judge_model(Json(request): Json<Value>) -> Json<Value> {
    let batch = request["messages"][1]["content"].as_str().unwrap_or("{}");
    let checks: Value = agent_test::serde_json::from_str(batch).unwrap_or_default();
    let results: Vec<Value> = checks["checks"].as_array().into_iter().flatten().map(|check| {
        let sorry = check["material"]["text"].as_str().is_some_and(|t| t.contains("Sorry"));
        let score = if sorry { 1.0 } else { 0.0 };
        json!({"id": check["id"], "score": score, "pass": sorry, "reasoning": "scripted"})
    }).collect();
    completion(json!({"role": "assistant", "content": json!({"results": results}).to_string()}))
}

fn assistant() -> ChatAgent {
    ChatAgent::new("fake-model")
        .base_url(format!("{}/agent/v1", fake_server()))
        .system("You are Acme's support agent.")
        .tool("lookup_order", "Look an order up by id", json!({
            "type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]
        }))
        .mock("lookup_order", json!("delivered"))
}

fn fake_judge() -> Judge {
    // No cache: a scripted judge that changes must not be answered from old verdicts.
    Judge::openai("fake-judge").base_url(format!("{}/judge/v1", fake_server())).mode(JudgeMode::Off)
}

agent_test! {
    agent = assistant();
    judge = fake_judge();

    scenario looks_the_order_up_and_apologises {
        user "Where is my order ORD-9921?" {
            expect tool("lookup_order").arg("order_id", "ORD-9921").result("delivered");
            expect reply().contains("delivered");
            expect judge("apologises for the wait");
        }
    }
}
