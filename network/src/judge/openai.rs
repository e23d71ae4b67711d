//! A judge on an OpenAI-compatible chat-completions endpoint.

use serde_json::{Value, json};

use super::endpoint::{Endpoint, send};
use super::{Completion, JudgeModel, JudgePrompt, ModelError};
use crate::agent::BoxFuture;
use crate::agent::wire::Secret;
use agent_test_core::model::usage_in;

/// The pinned default OpenAI judge model: a dated snapshot, so verdicts do not drift.
pub const DEFAULT_OPENAI_JUDGE_MODEL: &str = "gpt-4o-mini-2024-07-18";

/// How an OpenAI-compatible server is asked for JSON.
///
/// ```
/// use agent_test::judge::{OpenAiJudge, StructuredOutput};
/// // llama.cpp and older servers know only the JSON mode:
/// let model = OpenAiJudge::new("qwen2.5-7b-instruct").structured_output(StructuredOutput::JsonObject);
/// # let _ = model;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum StructuredOutput {
    /// `response_format: json_schema` with the answer's schema, strict (OpenAI, vLLM, Ollama).
    #[default]
    JsonSchema,
    /// `response_format: json_object` (the schema is in the instructions only).
    JsonObject,
    /// Nothing: the instructions alone ask for JSON.
    None,
}

/// A judge on an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp).
/// Temperature 0; the endpoint is `AGENT_TEST_JUDGE_BASE_URL`, else `OPENAI_BASE_URL`, else
/// OpenAI's; the key `AGENT_TEST_JUDGE_API_KEY`, else `OPENAI_API_KEY` (never printed).
///
/// ```
/// use agent_test::judge::{Judge, OpenAiJudge};
/// let judge = Judge::new(OpenAiJudge::new("llama3.1:8b").base_url("http://127.0.0.1:11434/v1"));
/// assert_eq!(judge.model_id(), "openai:llama3.1:8b");
/// ```
#[derive(Debug)]
pub struct OpenAiJudge {
    endpoint: Endpoint,
    temperature: f64,
    structured: StructuredOutput,
}

impl OpenAiJudge {
    /// A judge using `model`, with the endpoint and key from the environment.
    ///
    /// See the type's example.
    pub fn new(model: impl Into<String>) -> Self {
        OpenAiJudge {
            endpoint: Endpoint::from_env(
                model.into(),
                &["AGENT_TEST_JUDGE_BASE_URL", "OPENAI_BASE_URL"],
                "https://api.openai.com/v1",
                &["AGENT_TEST_JUDGE_API_KEY", "OPENAI_API_KEY"],
            ),
            temperature: 0.0,
            structured: StructuredOutput::JsonSchema,
        }
    }

    /// The endpoint (up to `/v1`).
    ///
    /// See the type's example.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.endpoint.set_base_url(url.into());
        self
    }

    /// The API key.
    ///
    /// ```
    /// # use agent_test::judge::OpenAiJudge;
    /// let model = OpenAiJudge::new("gpt-4o-mini").api_key("sk-test");
    /// assert!(!format!("{model:?}").contains("sk-test"));
    /// ```
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.endpoint.api_key = Some(Secret::new(key));
        self
    }

    /// The sampling temperature (default 0).
    ///
    /// ```
    /// # use agent_test::judge::OpenAiJudge;
    /// let model = OpenAiJudge::new("gpt-4o-mini").temperature(0.2);
    /// # let _ = model;
    /// ```
    pub fn temperature(mut self, t: f64) -> Self {
        self.temperature = t;
        self
    }

    /// How JSON is requested (see [`StructuredOutput`]).
    ///
    /// See [`StructuredOutput`]'s example.
    pub fn structured_output(mut self, mode: StructuredOutput) -> Self {
        self.structured = mode;
        self
    }

    fn body(&self, prompt: &JudgePrompt) -> Value {
        let mut body = json!({
            "model": self.endpoint.model,
            "temperature": self.temperature,
            "messages": [
                {"role": "system", "content": prompt.system},
                {"role": "user", "content": prompt.user},
            ],
        });
        let format = match self.structured {
            StructuredOutput::JsonSchema => Some(json!({
                "type": "json_schema",
                "json_schema": {"name": "judge_verdicts", "strict": true, "schema": prompt.schema},
            })),
            StructuredOutput::JsonObject => Some(json!({"type": "json_object"})),
            StructuredOutput::None => None,
        };
        if let Some(f) = format
            && let Some(body) = body.as_object_mut()
        {
            body.insert("response_format".to_owned(), f);
        }
        body
    }

    async fn call(&self, prompt: &JudgePrompt) -> Result<Completion, ModelError> {
        let url = self.endpoint.url("/chat/completions");
        let mut req = self.endpoint.http()?.post(&url).json(&self.body(prompt));
        if let Some(key) = &self.endpoint.api_key {
            req = req.bearer_auth(key.expose());
        }
        let json = send(req, &url).await?;
        let text = json
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                ModelError::retryable(format!(
                    "the judge's answer has no `choices[0].message.content`: {}",
                    agent_test_core::util::text::clip(&json.to_string(), 200)
                ))
            })?;
        Ok(Completion {
            text: text.to_owned(),
            usage: usage_in(&json),
        })
    }
}

impl JudgeModel for OpenAiJudge {
    fn id(&self) -> String {
        format!("openai:{}", self.endpoint.model)
    }

    fn endpoint(&self) -> Option<String> {
        Some(self.endpoint.shown())
    }

    /// Rebuilt with the environment's key, as [`OpenAiJudge::new`] reads it.
    fn at_base_url(&self, url: &str) -> Option<std::sync::Arc<dyn JudgeModel>> {
        Some(std::sync::Arc::new(
            OpenAiJudge::new(self.endpoint.model.clone()).base_url(url),
        ))
    }

    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        Box::pin(async move { self.endpoint.redact(self.call(prompt).await) })
    }
}
