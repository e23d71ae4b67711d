//! One step of a chat agent's tool loop: the request sent to the model and its answer read
//! strictly, and each tool call the model asked for run on its MCP server or its mock.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::super::wire::{DEFAULT_MAX_BODY_BYTES, excerpt, read_body, request_error, shown_url};
use super::super::{AgentError, cassette_entries};
use super::{ChatAgent, McpSession, call_on, described, mcp_tools};
use agent_test_core::model::{Call, Reply};

impl ChatAgent {
    /// The body of one chat-completions request: the model's parameters, the conversation so
    /// far and the tools it may call.
    pub(super) fn request_body(&self, messages: &[Value], tools: &[Value]) -> Map<String, Value> {
        let mut body = self.params.clone();
        body.insert("model".into(), json!(self.model));
        body.insert("messages".into(), Value::Array(messages.to_vec()));
        if !tools.is_empty() {
            body.insert("tools".into(), Value::Array(tools.to_vec()));
        }
        if let Some(t) = self.temperature {
            body.insert("temperature".into(), json!(t));
        }
        body
    }

    /// One model step: the request sent, and its answer read strictly — an HTTP error, a
    /// cassette's miss, a body too large or not JSON is the turn's error, with what the turn
    /// had recorded so far (`reply`).
    pub(super) async fn complete(
        &self,
        http: &reqwest::Client,
        url: &str,
        body: &Map<String, Value>,
        step: usize,
        reply: &Reply,
    ) -> Result<Value, AgentError> {
        let mut req = http.post(url).json(body);
        if let Some(key) = &self.api_key {
            req = req.bearer_auth(key.expose());
        }
        self.waiting(Some(format!(
            "waiting for the model `{}` at {} (step {})",
            self.model,
            shown_url(url),
            step + 1
        )));
        let response = req
            .send()
            .await
            .map_err(|e| request_error(&e, url, self.timeout).with_partial(reply.clone()))?;
        let status = response.status();
        // Through a cassette: the entry that answered is the run's, and a replay's miss
        // says itself what was not recorded.
        cassette_entries::note(response.headers());
        let miss = cassette_entries::is_miss(response.headers());
        let bytes = read_body(response, DEFAULT_MAX_BODY_BYTES, url, self.timeout)
            .await
            .map_err(|e| e.with_partial(reply.clone()))?;
        if miss {
            return Err(
                AgentError::new(cassette_entries::miss_message(&bytes)).with_partial(reply.clone())
            );
        }
        if !status.is_success() {
            return Err(AgentError::new(format!(
                "the model endpoint {} answered HTTP {}: {}",
                shown_url(url),
                status.as_u16(),
                agent_test_core::util::text::clip(&String::from_utf8_lossy(&bytes), 300)
            ))
            .with_partial(reply.clone()));
        }
        // Strict: text that is not UTF-8 is an error, not replacement characters.
        serde_json::from_slice(&bytes).map_err(|e| {
            AgentError::new(format!(
                "the model endpoint answered with invalid JSON: {e}: {}",
                excerpt(&String::from_utf8_lossy(&bytes))
            ))
            .with_partial(reply.clone())
        })
    }

    /// Runs one tool call the model asked for — on its MCP server, else by its mock — and
    /// gives the call as recorded, its id, and what the model is told.
    pub(super) async fn run_call(
        &self,
        c: &Value,
        step: usize,
        servers: &[Arc<McpSession>],
        reply: &Reply,
    ) -> Result<(Call, String, String), AgentError> {
        let id = c
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let name = c
            .pointer("/function/name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let args = match c.pointer("/function/arguments") {
            Some(Value::String(s)) => agent_test_readers::trace::arguments_from_string(s),
            Some(other) => other.clone(),
            None => Value::Object(Map::new()),
        };
        // The calls of one model response are one step (parallel calls).
        let call = Call::tool(name.clone(), args.clone())
            .with_id(id.clone())
            .in_step(step);
        let mocked = self.mocks.iter().any(|(n, _)| *n == name);
        let server = servers
            .iter()
            .find(|s| !mocked && mcp_tools(s).iter().any(|t| t.0 == name));
        let (call, content) = match server {
            Some(session) => {
                self.waiting(Some(format!(
                    "waiting for {} to answer tools/call `{name}`",
                    described(session)
                )));
                call_on(session, call, &name, &args)
                    .await
                    .map_err(|e| e.with_partial(reply.clone()))?
            }
            None => match self.answer(&name, &args) {
                Ok(v) => (call.result(v.clone()), v),
                Err(e) => (call.failed(json!(e)), json!({"error": e})),
            },
        };
        let content = match content {
            Value::String(s) => s,
            other => other.to_string(),
        };
        Ok((call, id, content))
    }
}
