//! A local judge: an OpenAI-compatible (and an Anthropic-compatible) endpoint that grades the
//! checks it is sent, or misbehaves as scripted — malformed, partial, slow, 429, 500.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};

use super::servers::serve;

/// What the judge does with one request.
#[derive(Clone, Debug)]
pub enum Behaviour {
    /// Grades every check (see [`grade`]).
    Grade,
    /// Grades every check but the one with this id.
    GradeAllBut(&'static str),
    /// Answers this text as the model's message.
    Say(&'static str),
    /// Fails with this status and `Retry-After: 0`.
    Status(u16),
    /// Answers after this long.
    Slow(Duration),
}

#[derive(Default)]
pub struct Judge {
    script: Mutex<VecDeque<Behaviour>>,
    /// Every request body received.
    pub requests: Mutex<Vec<Value>>,
}

impl Judge {
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().expect("requests").clone()
    }

    /// The checks sent in request `i`.
    pub fn checks(&self, i: usize) -> Vec<Value> {
        let body = &self.requests()[i];
        let user = body["messages"][1]["content"]
            .as_str()
            .or_else(|| body["messages"][0]["content"].as_str())
            .unwrap_or_default();
        let v: Value = serde_json::from_str(user).expect("the user message is JSON");
        v["checks"].as_array().cloned().unwrap_or_default()
    }
}

/// Starts a judge that behaves as `script` says, request after request, then grades.
pub async fn judge_server(script: Vec<Behaviour>) -> (String, Arc<Judge>) {
    let judge = Arc::new(Judge {
        script: Mutex::new(script.into()),
        requests: Mutex::default(),
    });
    let router = Router::new()
        .route("/v1/chat/completions", post(openai))
        .route("/v1/messages", post(anthropic))
        .with_state(judge.clone());
    (format!("{}/v1", serve(router).await), judge)
}

/// The grading rule of this judge, simple enough to predict: a criterion "mentions X" scores
/// 1.0 when the text contains X (case-insensitively) and 0.2 otherwise; a semantic matcher
/// scores 0.9 when the value contains the description's first word, else 0.1; any other
/// criterion scores 0.5.
pub fn grade(check: &Value) -> Value {
    let criteria = check["criteria"].as_str().unwrap_or_default();
    let text = check["material"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    // Semantic matchers: the value must contain the description's first word.
    let semantic = criteria
        .strip_prefix("the value means the same as: ")
        .or_else(|| criteria.strip_prefix("the date/time value denotes: "))
        .and_then(|d| d.split_whitespace().next());
    let score = match (criteria.strip_prefix("mentions "), semantic) {
        (Some(word), _) if text.contains(&word.to_lowercase()) => 1.0,
        (Some(_), _) => 0.2,
        (None, Some(word)) if text.contains(&word.to_lowercase()) => 0.9,
        (None, Some(_)) => 0.1,
        (None, None) => 0.5,
    };
    json!({"id": check["id"], "score": score, "pass": score >= 0.8, "reasoning": format!("graded {criteria:?}")})
}

async fn next(judge: &Judge, body: &Bytes) -> (Behaviour, Value) {
    let json: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    judge.requests.lock().expect("requests").push(json.clone());
    let behaviour = judge
        .script
        .lock()
        .expect("script")
        .pop_front()
        .unwrap_or(Behaviour::Grade);
    if let Behaviour::Slow(d) = behaviour {
        tokio::time::sleep(d).await;
    }
    (behaviour, json)
}

fn checks_of(user: &str) -> Vec<Value> {
    serde_json::from_str::<Value>(user)
        .ok()
        .and_then(|v| v["checks"].as_array().cloned())
        .unwrap_or_default()
}

/// The answer's JSON text for a request's checks.
fn answer(behaviour: &Behaviour, checks: &[Value]) -> Result<String, StatusCode> {
    let results = |skip: Option<&str>| -> String {
        let r: Vec<Value> = checks
            .iter()
            .filter(|c| Some(c["id"].as_str().unwrap_or_default()) != skip)
            .map(grade)
            .collect();
        json!({ "results": r }).to_string()
    };
    match behaviour {
        Behaviour::Grade | Behaviour::Slow(_) => Ok(results(None)),
        Behaviour::GradeAllBut(id) => Ok(results(Some(id))),
        Behaviour::Say(text) => Ok((*text).to_owned()),
        Behaviour::Status(s) => Err(StatusCode::from_u16(*s).expect("status")),
    }
}

fn failure(status: StatusCode) -> Response {
    (
        status,
        [("retry-after", "0")],
        axum::Json(json!({"error": {"message": "scripted failure"}})),
    )
        .into_response()
}

async fn openai(State(judge): State<Arc<Judge>>, body: Bytes) -> Response {
    let (behaviour, json) = next(&judge, &body).await;
    let checks = checks_of(json["messages"][1]["content"].as_str().unwrap_or_default());
    match answer(&behaviour, &checks) {
        Err(status) => failure(status),
        Ok(text) => axum::Json(json!({
            "object": "chat.completion",
            "model": json["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 400, "completion_tokens": 60, "total_tokens": 460}
        }))
        .into_response(),
    }
}

async fn anthropic(State(judge): State<Arc<Judge>>, body: Bytes) -> Response {
    let (behaviour, json) = next(&judge, &body).await;
    let checks = checks_of(json["messages"][0]["content"].as_str().unwrap_or_default());
    match answer(&behaviour, &checks) {
        Err(status) => failure(status),
        Ok(text) => {
            let block = match serde_json::from_str::<Value>(&text) {
                Ok(input) => {
                    json!({"type": "tool_use", "id": "toolu_1", "name": "record_verdicts", "input": input})
                }
                Err(_) => json!({"type": "text", "text": text}),
            };
            axum::Json(json!({
                "type": "message",
                "role": "assistant",
                "content": [block],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 380, "output_tokens": 55}
            }))
            .into_response()
        }
    }
}
