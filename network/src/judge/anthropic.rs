//! A judge on Anthropic's Messages API.

use serde_json::{Value, json};

use super::endpoint::{Endpoint, send};
use super::{Completion, JudgeModel, JudgePrompt, ModelError};
use crate::agent::BoxFuture;
use crate::agent::wire::Secret;
use agent_test_core::model::usage_in;

/// The pinned default Anthropic judge model.
pub const DEFAULT_ANTHROPIC_JUDGE_MODEL: &str = "claude-3-5-haiku-20241022";

/// A judge on Anthropic's Messages API. The verdicts are requested as the input of a forced
/// tool call (Anthropic's structured-output mechanism). Temperature 0; the endpoint is
/// `AGENT_TEST_JUDGE_BASE_URL`, else `ANTHROPIC_BASE_URL`, else Anthropic's; the key
/// `AGENT_TEST_JUDGE_API_KEY`, else `ANTHROPIC_API_KEY` (never printed).
///
/// ```
/// use agent_test::judge::{AnthropicJudge, Judge};
/// let judge = Judge::new(AnthropicJudge::new("claude-3-5-haiku-20241022"));
/// assert_eq!(judge.model_id(), "anthropic:claude-3-5-haiku-20241022");
/// ```
#[derive(Debug)]
pub struct AnthropicJudge {
    endpoint: Endpoint,
    max_tokens: u32,
}

impl AnthropicJudge {
    /// A judge using `model`, with the endpoint and key from the environment.
    ///
    /// See the type's example.
    pub fn new(model: impl Into<String>) -> Self {
        AnthropicJudge {
            endpoint: Endpoint::from_env(
                model.into(),
                &["AGENT_TEST_JUDGE_BASE_URL", "ANTHROPIC_BASE_URL"],
                "https://api.anthropic.com/v1",
                &["AGENT_TEST_JUDGE_API_KEY", "ANTHROPIC_API_KEY"],
            ),
            max_tokens: 4096,
        }
    }

    /// The endpoint (up to `/v1`).
    ///
    /// ```
    /// # use agent_test::judge::AnthropicJudge;
    /// let model = AnthropicJudge::new("claude-3-5-haiku-20241022").base_url("http://127.0.0.1:9000/v1");
    /// # let _ = model;
    /// ```
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.endpoint.set_base_url(url.into());
        self
    }

    /// The API key.
    ///
    /// ```
    /// # use agent_test::judge::AnthropicJudge;
    /// let model = AnthropicJudge::new("claude-3-5-haiku-20241022").api_key("sk-ant-test");
    /// assert!(!format!("{model:?}").contains("sk-ant-test"));
    /// ```
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.endpoint.api_key = Some(Secret::new(key));
        self
    }

    async fn call(&self, prompt: &JudgePrompt) -> Result<Completion, ModelError> {
        let url = self.endpoint.url("/messages");
        let body = json!({
            "model": self.endpoint.model,
            "max_tokens": self.max_tokens,
            "temperature": 0,
            "system": prompt.system,
            "messages": [{"role": "user", "content": prompt.user}],
            "tools": [{
                "name": "record_verdicts",
                "description": "Record one verdict per check.",
                "input_schema": prompt.schema,
            }],
            "tool_choice": {"type": "tool", "name": "record_verdicts"},
        });
        let mut req = self
            .endpoint
            .http()?
            .post(&url)
            .header("anthropic-version", "2023-06-01")
            .json(&body);
        if let Some(key) = &self.endpoint.api_key {
            req = req.header("x-api-key", key.expose());
        }
        let json = send(req, &url).await?;
        let (content, blocks) = json
            .get("content")
            .and_then(|c| Some((c, c.as_array()?)))
            .ok_or_else(|| {
                ModelError::retryable(format!(
                    "the judge's answer has no `content` blocks: {}",
                    agent_test_core::util::text::clip(&json.to_string(), 200)
                ))
            })?;
        // The forced tool call's input; else whatever text the model wrote.
        let text = blocks
            .iter()
            .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
            .and_then(|b| b.get("input"))
            .map_or_else(
                || agent_test_core::util::text::content_text(content),
                Value::to_string,
            );
        Ok(Completion {
            text,
            usage: usage_in(&json),
        })
    }
}

impl JudgeModel for AnthropicJudge {
    fn id(&self) -> String {
        format!("anthropic:{}", self.endpoint.model)
    }

    fn endpoint(&self) -> Option<String> {
        Some(self.endpoint.shown())
    }

    /// Rebuilt with the environment's key, as [`AnthropicJudge::new`] reads it.
    fn at_base_url(&self, url: &str) -> Option<std::sync::Arc<dyn JudgeModel>> {
        Some(std::sync::Arc::new(
            AnthropicJudge::new(self.endpoint.model.clone()).base_url(url),
        ))
    }

    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        Box::pin(async move { self.endpoint.redact(self.call(prompt).await) })
    }
}
