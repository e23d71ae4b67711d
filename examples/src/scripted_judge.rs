//! A scripted judge for the examples: an OpenAI-compatible chat-completions endpoint on
//! 127.0.0.1 that grades each check with a Rust rule written for its criteria.
//!
//! **It is not a model.** Like the demo agent's planner, it is a deterministic stand-in, so the
//! judged examples run anywhere, offline, with the same verdicts every time — while going
//! through the real judge client, batching, validation and cache. A criterion without a rule
//! gets no result, which agent-test reports as an error for that check (never a pass).
//!
//! Point the same suite at a real model by setting `AGENT_TEST_JUDGE_MODEL` (and the provider's
//! key); see `examples/tests/demo/judged.rs`.

use std::sync::{Arc, OnceLock};

use agent_test::serde_json::{Value, json};
use axum::Router;
use axum::extract::State;
use axum::routing::post;

/// A grading rule: the check's material (`text`, `user_message`, `tool_calls`, ...) to a score
/// from 0 to 1 and a reason.
pub type Rule = fn(&Value) -> (f64, &'static str);

/// The rules, by criteria, and the server answering with them.
///
/// ```
/// use agent_test_examples::scripted_judge::ScriptedJudge;
/// let url = ScriptedJudge::new()
///     .rule("is short", |m| if m["text"].as_str().unwrap_or("").len() < 80 { (1.0, "short") } else { (0.0, "long") })
///     .start();
/// assert!(url.starts_with("http://127.0.0.1:"));
/// ```
#[derive(Clone, Default)]
pub struct ScriptedJudge {
    rules: Vec<(&'static str, Rule)>,
}

impl ScriptedJudge {
    /// No rules yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Grades checks whose criteria are exactly `criteria` with `rule`.
    pub fn rule(mut self, criteria: &'static str, rule: Rule) -> Self {
        self.rules.push((criteria, rule));
        self
    }

    /// Serves the rules on 127.0.0.1 at a free port, on a thread of its own; returns the base
    /// URL (`http://127.0.0.1:PORT/v1`) to give [`Judge::base_url`](agent_test::judge::Judge::base_url).
    ///
    /// # Panics
    ///
    /// If no local port can be bound or no thread started — a broken test machine.
    pub fn start(self) -> String {
        let router = Router::new()
            .route("/v1/chat/completions", post(complete))
            .with_state(Arc::new(self));
        let addr = crate::background::serve("scripted-judge", router);
        format!("http://{addr}/v1")
    }

    /// The examples' judge, started once per process.
    pub fn examples_url() -> &'static str {
        static URL: OnceLock<String> = OnceLock::new();
        URL.get_or_init(|| examples().start())
    }

    fn grade(&self, check: &Value) -> Option<Value> {
        let criteria = check["criteria"].as_str()?;
        let (_, rule) = self.rules.iter().find(|(c, _)| *c == criteria)?;
        let (score, reason) = rule(&check["material"]);
        Some(json!({"id": check["id"], "score": score, "pass": score >= 0.8, "reasoning": reason}))
    }
}

/// `POST /v1/chat/completions`: the checks are the JSON in the user message.
async fn complete(
    State(judge): State<Arc<ScriptedJudge>>,
    body: axum::body::Bytes,
) -> axum::Json<Value> {
    let request: Value = agent_test::serde_json::from_slice(&body).unwrap_or_default();
    let user = request["messages"][1]["content"].as_str().unwrap_or("{}");
    let checks: Value = agent_test::serde_json::from_str(user).unwrap_or_default();
    let results: Vec<Value> = checks["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| judge.grade(c))
        .collect();
    axum::Json(json!({
        "object": "chat.completion",
        "model": request["model"],
        "choices": [{"index": 0, "message": {"role": "assistant", "content": json!({"results": results}).to_string()}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": user.len() / 4, "completion_tokens": 40 * results.len()}
    }))
}

/// The rules of the judged examples.
fn examples() -> ScriptedJudge {
    ScriptedJudge::new()
        .rule("apologises for the trouble", |m| {
            let t = m["text"].as_str().unwrap_or_default().to_lowercase();
            if t.contains("sorry") {
                (1.0, "says sorry")
            } else {
                (0.1, "no apology")
            }
        })
        .rule("confirms the refund with its id and amount", |m| {
            let t = m["text"].as_str().unwrap_or_default();
            match (t.contains("RF-"), t.contains('€')) {
                (true, true) => (1.0, "gives the refund id and the amount"),
                (true, false) | (false, true) => {
                    (0.5, "gives only one of the refund id and the amount")
                }
                (false, false) => (0.0, "confirms nothing"),
            }
        })
        .rule("every amount it states appears in the tool results", |m| {
            let t = m["text"].as_str().unwrap_or_default();
            let results = m["tool_calls"].to_string();
            let amounts: Vec<&str> = t
                .split('€')
                .skip(1)
                .filter_map(|s| s.split(|c: char| !c.is_ascii_digit() && c != '.').next())
                .map(|s| s.trim_end_matches('.'))
                .collect();
            if amounts
                .iter()
                .all(|a| results.contains(a.trim_end_matches('0').trim_end_matches('.')))
            {
                (1.0, "every amount is in a tool result")
            } else {
                (0.0, "states an amount no tool returned")
            }
        })
        .rule("never asks for the same information twice", |m| {
            let t = m["text"].as_str().unwrap_or_default().to_lowercase();
            let asks = t.matches("order number?").count();
            if asks <= 1 {
                (1.0, "asks for the order number once")
            } else {
                (0.0, "asks again")
            }
        })
}
