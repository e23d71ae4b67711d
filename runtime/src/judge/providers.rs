//! Judge models over HTTP: OpenAI-compatible chat completions and Anthropic Messages.

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{Value, json};

use super::{Completion, Judge, JudgeModel, JudgePrompt, ModelError};
use crate::agent::BoxFuture;
use crate::agent::wire::{
    DEFAULT_MAX_BODY_BYTES, Secret, client, read_body, request_error, shown_url,
};
use crate::model::usage_in;

/// The pinned default OpenAI judge model: a dated snapshot, so verdicts do not drift.
pub const DEFAULT_OPENAI_JUDGE_MODEL: &str = "gpt-4o-mini-2024-07-18";
/// The pinned default Anthropic judge model.
pub const DEFAULT_ANTHROPIC_JUDGE_MODEL: &str = "claude-3-5-haiku-20241022";

fn env(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok().filter(|v| !v.trim().is_empty()))
}

/// How an OpenAI-compatible server is asked for JSON.
///
/// ```
/// use agent_test_runtime::judge::{OpenAiJudge, StructuredOutput};
/// // llama.cpp and older servers know only the JSON mode:
/// let model = OpenAiJudge::new("qwen2.5-7b-instruct").structured_output(StructuredOutput::JsonObject);
/// # let _ = model;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
/// use agent_test_runtime::judge::{Judge, OpenAiJudge};
/// let judge = Judge::new(OpenAiJudge::new("llama3.1:8b").base_url("http://127.0.0.1:11434/v1"));
/// assert_eq!(judge.model_id(), "openai:llama3.1:8b");
/// ```
pub struct OpenAiJudge {
    model: String,
    base_url: String,
    api_key: Option<Secret>,
    temperature: f64,
    structured: StructuredOutput,
    client: OnceLock<Result<reqwest::Client, String>>,
}

impl OpenAiJudge {
    /// A judge using `model`, with the endpoint and key from the environment.
    ///
    /// See the type's example.
    pub fn new(model: impl Into<String>) -> Self {
        OpenAiJudge {
            model: model.into(),
            base_url: env(&["AGENT_TEST_JUDGE_BASE_URL", "OPENAI_BASE_URL"])
                .unwrap_or_else(|| "https://api.openai.com/v1".into())
                .trim_end_matches('/')
                .to_owned(),
            api_key: env(&["AGENT_TEST_JUDGE_API_KEY", "OPENAI_API_KEY"]).map(Secret::new),
            temperature: 0.0,
            structured: StructuredOutput::JsonSchema,
            client: OnceLock::new(),
        }
    }

    /// The endpoint (up to `/v1`).
    ///
    /// See the type's example.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = url.into().trim_end_matches('/').to_owned();
        self
    }

    /// The API key.
    ///
    /// ```
    /// # use agent_test_runtime::judge::OpenAiJudge;
    /// let model = OpenAiJudge::new("gpt-4o-mini").api_key("sk-test");
    /// assert!(!format!("{model:?}").contains("sk-test"));
    /// ```
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(Secret::new(key));
        self
    }

    /// The sampling temperature (default 0).
    ///
    /// ```
    /// # use agent_test_runtime::judge::OpenAiJudge;
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
            "model": self.model,
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
        if let Some(f) = format {
            body["response_format"] = f;
        }
        body
    }

    async fn call(&self, prompt: &JudgePrompt) -> Result<Completion, ModelError> {
        let url = format!("{}/chat/completions", self.base_url);
        let mut req = http(&self.client)?.post(&url).json(&self.body(prompt));
        if let Some(key) = &self.api_key {
            req = req.bearer_auth(key.expose());
        }
        let json = send(req, &url).await?;
        let text = json
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                ModelError::retryable(format!(
                    "the judge's answer has no `choices[0].message.content`: {}",
                    crate::report::clip(&json.to_string(), 200)
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
        format!("openai:{}", self.model)
    }

    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        Box::pin(self.call(prompt))
    }
}

impl fmt::Debug for OpenAiJudge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenAiJudge")
            .field("model", &self.model)
            .field("base_url", &shown_url(&self.base_url))
            .field("api_key", &self.api_key)
            .finish()
    }
}

/// A judge on Anthropic's Messages API. The verdicts are requested as the input of a forced
/// tool call (Anthropic's structured-output mechanism). Temperature 0; the endpoint is
/// `AGENT_TEST_JUDGE_BASE_URL`, else `ANTHROPIC_BASE_URL`, else Anthropic's; the key
/// `AGENT_TEST_JUDGE_API_KEY`, else `ANTHROPIC_API_KEY` (never printed).
///
/// ```
/// use agent_test_runtime::judge::{AnthropicJudge, Judge};
/// let judge = Judge::new(AnthropicJudge::new("claude-3-5-haiku-20241022"));
/// assert_eq!(judge.model_id(), "anthropic:claude-3-5-haiku-20241022");
/// ```
pub struct AnthropicJudge {
    model: String,
    base_url: String,
    api_key: Option<Secret>,
    max_tokens: u32,
    client: OnceLock<Result<reqwest::Client, String>>,
}

impl AnthropicJudge {
    /// A judge using `model`, with the endpoint and key from the environment.
    ///
    /// See the type's example.
    pub fn new(model: impl Into<String>) -> Self {
        AnthropicJudge {
            model: model.into(),
            base_url: env(&["AGENT_TEST_JUDGE_BASE_URL", "ANTHROPIC_BASE_URL"])
                .unwrap_or_else(|| "https://api.anthropic.com/v1".into())
                .trim_end_matches('/')
                .to_owned(),
            api_key: env(&["AGENT_TEST_JUDGE_API_KEY", "ANTHROPIC_API_KEY"]).map(Secret::new),
            max_tokens: 4096,
            client: OnceLock::new(),
        }
    }

    /// The endpoint (up to `/v1`).
    ///
    /// ```
    /// # use agent_test_runtime::judge::AnthropicJudge;
    /// let model = AnthropicJudge::new("claude-3-5-haiku-20241022").base_url("http://127.0.0.1:9000/v1");
    /// # let _ = model;
    /// ```
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = url.into().trim_end_matches('/').to_owned();
        self
    }

    /// The API key.
    ///
    /// ```
    /// # use agent_test_runtime::judge::AnthropicJudge;
    /// let model = AnthropicJudge::new("claude-3-5-haiku-20241022").api_key("sk-ant-test");
    /// assert!(!format!("{model:?}").contains("sk-ant-test"));
    /// ```
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(Secret::new(key));
        self
    }

    async fn call(&self, prompt: &JudgePrompt) -> Result<Completion, ModelError> {
        let url = format!("{}/messages", self.base_url);
        let body = json!({
            "model": self.model,
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
        let mut req = http(&self.client)?
            .post(&url)
            .header("anthropic-version", "2023-06-01")
            .json(&body);
        if let Some(key) = &self.api_key {
            req = req.header("x-api-key", key.expose());
        }
        let json = send(req, &url).await?;
        let blocks = json
            .get("content")
            .and_then(Value::as_array)
            .ok_or_else(|| {
                ModelError::retryable(format!(
                    "the judge's answer has no `content` blocks: {}",
                    crate::report::clip(&json.to_string(), 200)
                ))
            })?;
        let text = blocks
            .iter()
            .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
            .and_then(|b| b.get("input"))
            .map(Value::to_string)
            .unwrap_or_else(|| {
                blocks
                    .iter()
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("")
            });
        Ok(Completion {
            text,
            usage: usage_in(&json),
        })
    }
}

impl JudgeModel for AnthropicJudge {
    fn id(&self) -> String {
        format!("anthropic:{}", self.model)
    }

    fn complete<'a>(
        &'a self,
        prompt: &'a JudgePrompt,
    ) -> BoxFuture<'a, Result<Completion, ModelError>> {
        Box::pin(self.call(prompt))
    }
}

impl fmt::Debug for AnthropicJudge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnthropicJudge")
            .field("model", &self.model)
            .field("base_url", &shown_url(&self.base_url))
            .field("api_key", &self.api_key)
            .finish()
    }
}

/// The shared client. Its own timeout is generous: the [`Judge`] enforces the real one.
fn http(cell: &OnceLock<Result<reqwest::Client, String>>) -> Result<&reqwest::Client, ModelError> {
    cell.get_or_init(|| client(Duration::from_secs(600)).map_err(|e| e.message().to_owned()))
        .as_ref()
        .map_err(|e| ModelError::fatal(e.clone()))
}

/// Sends a request and reads a JSON answer; 429, 5xx, timeouts and lost connections are worth
/// retrying, other failures are not.
async fn send(req: reqwest::RequestBuilder, url: &str) -> Result<Value, ModelError> {
    let timeout = Duration::from_secs(600);
    let response = req
        .send()
        .await
        .map_err(|e| ModelError::retryable(request_error(&e, url, timeout).message().to_owned()))?;
    let status = response.status();
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        // Clamped before converting: a huge value would not fit a Duration.
        .map(|s| Duration::from_secs_f64(s.min(60.0)));
    let bytes = read_body(response, DEFAULT_MAX_BODY_BYTES, url, timeout)
        .await
        .map_err(|e| ModelError::retryable(e.message().to_owned()))?;
    let text = String::from_utf8_lossy(&bytes);
    if !status.is_success() {
        let message = format!(
            "the judge endpoint {} answered HTTP {}: {}",
            shown_url(url),
            status.as_u16(),
            crate::report::clip(&text, 300)
        );
        let err = if status.as_u16() == 429 || status.is_server_error() {
            ModelError::retryable(message)
        } else {
            ModelError::fatal(message)
        };
        return Err(match retry_after {
            Some(d) => err.after(d),
            None => err,
        });
    }
    serde_json::from_str(&text).map_err(|e| {
        ModelError::retryable(format!(
            "the judge endpoint answered with invalid JSON ({e}): {}",
            crate::report::clip(&text, 200)
        ))
    })
}

impl Judge {
    /// A judge on an OpenAI-compatible endpoint (see [`OpenAiJudge`]); set the endpoint with
    /// [`Judge::base_url`].
    ///
    /// See the [module documentation](super).
    pub fn openai(model: impl Into<String>) -> Self {
        Judge::new(OpenAiJudge::new(model))
    }

    /// A judge on Anthropic's Messages API (see [`AnthropicJudge`]).
    ///
    /// ```
    /// # use agent_test_runtime::judge::Judge;
    /// assert_eq!(Judge::anthropic("claude-3-5-haiku-20241022").model_id(), "anthropic:claude-3-5-haiku-20241022");
    /// ```
    pub fn anthropic(model: impl Into<String>) -> Self {
        Judge::new(AnthropicJudge::new(model))
    }

    /// A judge configured by the environment: `AGENT_TEST_JUDGE_PROVIDER` (`openai` or
    /// `anthropic`; by default `anthropic` for `claude-*` models, else `openai`),
    /// `AGENT_TEST_JUDGE_MODEL` (default a pinned snapshot of the provider's small model),
    /// `AGENT_TEST_JUDGE_BASE_URL` and `AGENT_TEST_JUDGE_API_KEY` (else the provider's usual
    /// variables).
    ///
    /// ```
    /// # use agent_test_runtime::judge::Judge;
    /// let judge = Judge::from_env();
    /// # let _ = judge;
    /// ```
    pub fn from_env() -> Self {
        let model = env(&["AGENT_TEST_JUDGE_MODEL"]);
        let provider = env(&["AGENT_TEST_JUDGE_PROVIDER"]).unwrap_or_else(|| match &model {
            Some(m) if m.starts_with("claude") => "anthropic".into(),
            _ => "openai".into(),
        });
        if provider.eq_ignore_ascii_case("anthropic") {
            Judge::anthropic(model.unwrap_or_else(|| DEFAULT_ANTHROPIC_JUDGE_MODEL.into()))
        } else {
            Judge::openai(model.unwrap_or_else(|| DEFAULT_OPENAI_JUDGE_MODEL.into()))
        }
    }

    /// [`Judge::from_env`] when the environment names a judge (`AGENT_TEST_JUDGE_MODEL`,
    /// `AGENT_TEST_JUDGE_PROVIDER` or `AGENT_TEST_JUDGE_BASE_URL` is set), else nothing: an
    /// API key alone never turns judging on. What runs without `judge = ...;` use.
    ///
    /// ```
    /// # use agent_test_runtime::judge::Judge;
    /// if std::env::var_os("AGENT_TEST_JUDGE_MODEL").is_none()
    ///     && std::env::var_os("AGENT_TEST_JUDGE_PROVIDER").is_none()
    ///     && std::env::var_os("AGENT_TEST_JUDGE_BASE_URL").is_none()
    /// {
    ///     assert!(Judge::from_env_if_configured().is_none());
    /// }
    /// ```
    pub fn from_env_if_configured() -> Option<Self> {
        env(&[
            "AGENT_TEST_JUDGE_MODEL",
            "AGENT_TEST_JUDGE_PROVIDER",
            "AGENT_TEST_JUDGE_BASE_URL",
        ])
        .map(|_| Judge::from_env())
    }

    /// Points an OpenAI or Anthropic judge at another endpoint: rebuilds its model with that
    /// base URL and the environment's key. To set a key, temperature or structured-output mode
    /// in code, configure an [`OpenAiJudge`] or [`AnthropicJudge`] and wrap it with
    /// [`Judge::new`].
    ///
    /// See the [module documentation](super).
    pub fn base_url(self, url: impl Into<String>) -> Self {
        let url = url.into();
        let id = self.model_id();
        let rebuilt = if let Some(model) = id.strip_prefix("openai:") {
            Judge::new(OpenAiJudge::new(model).base_url(url))
        } else if let Some(model) = id.strip_prefix("anthropic:") {
            Judge::new(AnthropicJudge::new(model).base_url(url))
        } else {
            return self;
        };
        Judge {
            model: rebuilt.model,
            ..self
        }
    }
}
