use agent_test::agent::BoxFuture;
use agent_test::judge::{Completion, JudgeModel, JudgePrompt, ModelError};
use agent_test::prelude::*;
use agent_test::agent::agent_fn;
use agent_test::judge::{Judge, JudgeMode};
use agent_test::serde_json::Value;

/// Passes a check when the text it judges is at most 80 characters long.
struct Brevity;

impl JudgeModel for Brevity {
    fn id(&self) -> String {
        "scripted:brevity".into()
    }
    fn complete<'a>(&'a self, prompt: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
        let checks: Value = agent_test::serde_json::from_str(&prompt.user).unwrap_or_default();
        let results: Vec<Value> = checks["checks"].as_array().into_iter().flatten().map(|c| {
            let short = c["material"]["text"].as_str().is_some_and(|t| t.chars().count() <= 80);
            json!({"id": c["id"], "score": if short { 1.0 } else { 0.0 }, "pass": short, "reasoning": "length"})
        }).collect();
        let text = json!({"results": results}).to_string();
        Box::pin(async move { Ok(Completion { text, usage: None }) })
    }
}

agent_test! {
    agent = agent_fn(|_request| async { "Your order ORD-9921 was delivered yesterday." });
    judge = Judge::new(Brevity).mode(JudgeMode::Off);

    scenario answers_briefly {
        user "Where is my order ORD-9921?" {
            expect judge("answers in one short sentence");
        }
    }
}
