//! A scripted model for the examples: an OpenAI-compatible chat-completions endpoint on
//! 127.0.0.1 that calls the tools it is offered the way a tool-calling model would — by rules,
//! not by a model — so the examples run offline with the same answers every time, through the
//! real clients.
//!
//! The rules: an order number (`ORD-1234`) in the user's message makes it call `lookup_order`;
//! `hotels in <City>` makes it call `search_hotels`; "refund" after a lookup makes it call
//! `process_refund` with the order's total. It calls only tools it was offered. Given a tool's
//! result, it answers from it.

use std::sync::{Arc, Mutex};

use agent_test::serde_json::{Value, json};
use axum::Router;
use axum::extract::State;
use axum::routing::post;

/// The requests the model received (their JSON bodies), newest last.
pub type Received = Arc<Mutex<Vec<Value>>>;

/// Serves the scripted model; returns its base URL (`http://127.0.0.1:PORT/v1`) and the log of
/// what it received.
///
/// ```
/// let (url, received) = agent_test_examples::scripted_model::start();
/// assert!(url.ends_with("/v1"));
/// assert!(received.lock().unwrap().is_empty());
/// ```
///
/// # Panics
///
/// As [`crate::background::serve`].
pub fn start() -> (String, Received) {
    let received = Received::default();
    let router = Router::new()
        .route("/v1/chat/completions", post(answer))
        .with_state(received.clone());
    let addr = crate::background::serve("scripted-model", router);
    (format!("http://{addr}/v1"), received)
}

async fn answer(
    State(received): State<Received>,
    axum::Json(body): axum::Json<Value>,
) -> axum::Json<Value> {
    received
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(body.clone());
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let offered: Vec<String> = body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| {
            t.pointer("/function/name")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .collect();
    let user = messages
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned();
    let last = messages.last().cloned().unwrap_or(Value::Null);
    let message = match decide(&user, &last, &offered) {
        Decision::Call(name, args) => json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": format!("call_{}", messages.len()), "type": "function",
             "function": {"name": name, "arguments": args.to_string()}}]}),
        Decision::Say(text) => json!({"role": "assistant", "content": text}),
    };
    let prompt = 50 + 20 * messages.len() as u64;
    axum::Json(json!({
        "id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": body["model"],
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": 15, "total_tokens": prompt + 15}
    }))
}

enum Decision {
    Call(&'static str, Value),
    Say(String),
}

fn decide(user: &str, last: &Value, offered: &[String]) -> Decision {
    let offers = |name: &str| offered.iter().any(|o| o == name);
    if last["role"] == "tool" {
        let content = last["content"].as_str().unwrap_or_default();
        let result: Value = agent_test::serde_json::from_str(content).unwrap_or(Value::Null);
        if user.to_lowercase().contains("refund")
            && result.get("total").is_some()
            && result.get("refund_id").is_none()
            && offers("process_refund")
        {
            return Decision::Call(
                "process_refund",
                json!({"order_id": result["order_id"], "amount": result["total"], "reason": "duplicate_charge"}),
            );
        }
        return Decision::Say(summary(&result, content));
    }
    if let Some(order) = user
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .find(|w| w.starts_with("ORD-"))
        && offers("lookup_order")
    {
        return Decision::Call("lookup_order", json!({"order_id": order}));
    }
    if let Some(city) = user
        .split("hotels in ")
        .nth(1)
        .map(|c| c.trim_end_matches(['?', '.', '!']).trim())
        && offers("search_hotels")
    {
        return Decision::Call("search_hotels", json!({"city": city}));
    }
    Decision::Say("How can I help?".into())
}

/// The answer from a tool's result.
fn summary(result: &Value, raw: &str) -> String {
    if let Some(e) = result.get("error").and_then(Value::as_str) {
        return format!("Sorry, that did not work: {e}.");
    }
    if let Some(id) = result.get("refund_id").and_then(Value::as_str) {
        return format!("Done: refund {id} is on its way.");
    }
    if let (Some(order), Some(status)) = (
        result.get("order_id").and_then(Value::as_str),
        result.get("status").and_then(Value::as_str),
    ) {
        return format!("Order {order} is {status}.");
    }
    if let Some(hotels) = result
        .get("hotels")
        .and_then(Value::as_array)
        .or(result.as_array())
    {
        let names: Vec<&str> = hotels.iter().filter_map(|h| h["name"].as_str()).collect();
        return format!("I found {} hotels: {}.", names.len(), names.join(", "));
    }
    format!("Here is what I found: {raw}")
}
