//! An agent reached over HTTP.

use std::fmt;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::wire::{DEFAULT_MAX_BODY_BYTES, Secret, client, read_body, request_error};
use super::{Agent, AgentError, AgentRequest, BoxFuture};
use crate::matcher::compact;
use crate::model::{Call, Reply};
use crate::path::FieldPath;
use crate::trace::{self, Format};

/// An agent behind an HTTP endpoint: each turn is one request, built from a JSON template, and
/// the response becomes the turn's reply.
///
/// **Request.** The body is the template with placeholders filled: `"{input}"` (the user's
/// message), `"{messages}"` (the conversation so far as OpenAI-style messages), `"{context}"`
/// (the context variables), `"{session_id}"` (see [`HttpAgent::session_id_from`]) and
/// `"{NAME}"` for any context variable. A string that is exactly a placeholder takes the value
/// (a number stays a number); placeholders inside longer strings are replaced by text. The
/// default template is `{"input": "{input}", "messages": "{messages}", "context": "{context}",
/// "session_id": "{session_id}"}`. A turn with a custom body ([`custom_body`](super::custom_body))
/// sends that body instead.
///
/// **Response.** The status and time are recorded; a non-2xx answer is a reply like any other
/// (so `http_status(..)` sees it), not an error. A JSON body is kept as the turn's body; the
/// reply text, tool calls and usage come from the paths you give, else from a trace format the
/// body is in (OpenAI, Responses API, Anthropic, Gemini, LangChain, Mibo, MorganaBench, n8n),
/// else from the first of `reply`, `response`, `output`, `text`, `message`, `answer`, `content`.
/// A body that is not JSON is the reply text. No answer within the timeout, a refused
/// connection or a body over 10 MiB is an agent error.
///
/// Header values set with [`HttpAgent::secret_header`] or [`HttpAgent::bearer_token`] never
/// appear in reports, logs or `Debug` output.
///
/// ```no_run
/// use agent_test_runtime::agent::HttpAgent;
/// use serde_json::json;
/// let agent = HttpAgent::post("https://support.example.com/chat")
///     .bearer_token(std::env::var("SUPPORT_API_KEY").unwrap_or_default())
///     .body_template(json!({"prompt": "{input}", "user_id": "{USER_ID}", "mode": "test"}))
///     .session_id_from("session.id")
///     .reply_at("data.answer");
/// ```
pub struct HttpAgent {
    url: String,
    method: reqwest::Method,
    headers: Vec<(String, HeaderValue)>,
    template: Value,
    session_from: Option<FieldPath>,
    reply_at: Option<FieldPath>,
    calls_at: Option<FieldPath>,
    format: Option<Format>,
    timeout: Duration,
    max_body_bytes: usize,
    session: Mutex<Option<Value>>,
    /// Built on first use, then reused: a client holds the connection pool and TLS setup.
    client: OnceLock<Result<reqwest::Client, AgentError>>,
}

enum HeaderValue {
    Plain(String),
    Secret(Secret),
}

impl HeaderValue {
    fn value(&self) -> &str {
        match self {
            HeaderValue::Plain(v) => v,
            HeaderValue::Secret(s) => s.expose(),
        }
    }
}

impl HttpAgent {
    /// An agent answering `POST` requests at `url`.
    ///
    /// See the type's example.
    pub fn post(url: impl Into<String>) -> Self {
        HttpAgent {
            url: url.into(),
            method: reqwest::Method::POST,
            headers: Vec::new(),
            template: json!({"input": "{input}", "messages": "{messages}", "context": "{context}", "session_id": "{session_id}"}),
            session_from: None,
            reply_at: None,
            calls_at: None,
            format: None,
            timeout: Duration::from_secs(60),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            session: Mutex::new(None),
            client: OnceLock::new(),
        }
    }

    /// Uses another HTTP method (`PUT`, `PATCH`, ...). An invalid method name keeps `POST`.
    ///
    /// ```
    /// # use agent_test_runtime::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").method("PUT");
    /// # let _ = agent;
    /// ```
    pub fn method(mut self, method: &str) -> Self {
        if let Ok(m) = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes()) {
            self.method = m;
        }
        self
    }

    /// Adds a header.
    ///
    /// ```
    /// # use agent_test_runtime::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").header("X-Tenant", "acme");
    /// # let _ = agent;
    /// ```
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers
            .push((name.into(), HeaderValue::Plain(value.into())));
        self
    }

    /// Adds a header whose value is secret (redacted everywhere).
    ///
    /// ```
    /// # use agent_test_runtime::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").secret_header("X-Api-Key", "k-123");
    /// assert!(!format!("{agent:?}").contains("k-123"));
    /// ```
    pub fn secret_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers
            .push((name.into(), HeaderValue::Secret(Secret::new(value))));
        self
    }

    /// `Authorization: Bearer <token>`, as a secret.
    ///
    /// See the type's example.
    pub fn bearer_token(self, token: impl Into<String>) -> Self {
        let token = token.into();
        self.secret_header("Authorization", format!("Bearer {token}"))
    }

    /// The request body template (see the type's docs for placeholders).
    ///
    /// See the type's example.
    pub fn body_template(mut self, template: Value) -> Self {
        self.template = template;
        self
    }

    /// The server keeps the conversation: read a session id at this path of each response and
    /// send it back as `"{session_id}"` in later requests.
    ///
    /// See the type's example.
    pub fn session_id_from(mut self, path: impl Into<String>) -> Self {
        self.session_from = Some(FieldPath::new(path));
        self
    }

    /// The reply text is the string at this path of the response.
    ///
    /// See the type's example.
    pub fn reply_at(mut self, path: impl Into<String>) -> Self {
        self.reply_at = Some(FieldPath::new(path));
        self
    }

    /// The tool calls are the array at this path: items with `name`, `arguments` (or `args`,
    /// `input`), `result` (or `output`) and `error`.
    ///
    /// ```
    /// # use agent_test_runtime::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").tool_calls_at("trace.tools");
    /// # let _ = agent;
    /// ```
    pub fn tool_calls_at(mut self, path: impl Into<String>) -> Self {
        self.calls_at = Some(FieldPath::new(path));
        self
    }

    /// Read responses as this trace format instead of detecting it.
    ///
    /// ```
    /// # use agent_test_runtime::{agent::HttpAgent, trace::Format};
    /// let agent = HttpAgent::post("http://localhost:8080/webhook").trace_format(Format::N8n);
    /// # let _ = agent;
    /// ```
    pub fn trace_format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// How long one request may take (default 60 s).
    ///
    /// ```
    /// # use agent_test_runtime::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").timeout(std::time::Duration::from_secs(5));
    /// # let _ = agent;
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The largest response body accepted (default 10 MiB).
    ///
    /// ```
    /// # use agent_test_runtime::agent::HttpAgent;
    /// let agent = HttpAgent::post("http://localhost:8080/agent").max_body_bytes(1 << 20);
    /// # let _ = agent;
    /// ```
    pub fn max_body_bytes(mut self, max: usize) -> Self {
        self.max_body_bytes = max;
        self
    }

    fn session(&self) -> Option<Value> {
        match self.session.lock() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    fn set_session(&self, value: Option<Value>) {
        match self.session.lock() {
            Ok(mut g) => *g = value,
            Err(p) => *p.into_inner() = value,
        }
    }

    /// The request body for a turn.
    fn body(&self, request: &AgentRequest) -> Value {
        if let Some(body) = &request.custom_body {
            return body.clone();
        }
        let messages: Vec<Value> = request
            .messages
            .iter()
            .map(|m| json!({"role": m.role.as_str(), "content": m.content}))
            .collect();
        let mut vars: Map<String, Value> = request
            .context
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        vars.insert("input".into(), Value::String(request.input.clone()));
        vars.insert("messages".into(), Value::Array(messages));
        vars.insert(
            "context".into(),
            serde_json::to_value(&request.context).unwrap_or(Value::Null),
        );
        vars.insert("session_id".into(), self.session().unwrap_or(Value::Null));
        fill(&self.template, &vars)
    }

    async fn turn(&self, request: AgentRequest) -> Result<Reply, AgentError> {
        let http = self
            .client
            .get_or_init(|| client(self.timeout))
            .as_ref()
            .map_err(Clone::clone)?;
        let mut builder = http
            .request(self.method.clone(), &self.url)
            .json(&self.body(&request));
        for (name, value) in &self.headers {
            builder = builder.header(name.as_str(), value.value());
        }
        let response = builder
            .send()
            .await
            .map_err(|e| request_error(&e, &self.url, self.timeout))?;
        let status = response.status().as_u16();
        let bytes = read_body(response, self.max_body_bytes, &self.url, self.timeout).await?;
        let mut reply = match serde_json::from_slice::<Value>(&bytes) {
            Ok(json) => self.read_json(json)?,
            Err(_) => Reply::text(String::from_utf8_lossy(&bytes).into_owned()),
        };
        reply.http_status = Some(status);
        Ok(reply)
    }

    fn read_json(&self, json: Value) -> Result<Reply, AgentError> {
        if let Some(path) = &self.session_from
            && let Some(id) = path.get(&json)
        {
            self.set_session(Some(id.clone()));
        }
        let format = self.format.or_else(|| trace::detect(&json));
        let mut reply = match format {
            Some(f) => {
                let t = trace::parse(&json, Some(f)).map_err(|e| {
                    AgentError::new(format!("the response is not a valid {f} trace: {e}"))
                })?;
                t.turns
                    .into_iter()
                    .last()
                    .map(|t| t.reply)
                    .unwrap_or_default()
            }
            None => Reply::text(default_text(&json)),
        };
        if let Some(path) = &self.reply_at {
            reply.text = match path.get(&json) {
                Some(Value::String(s)) => s.clone(),
                Some(other) => compact(other),
                None => String::new(),
            };
        }
        if let Some(path) = &self.calls_at {
            reply.calls = path
                .get(&json)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(generic_call).collect())
                .unwrap_or_default();
        }
        reply.body = Some(json);
        Ok(reply)
    }
}

/// A call from a generic `{name, arguments, result, error}` item.
fn generic_call(v: &Value) -> Option<Call> {
    let name = v.get("name")?.as_str()?;
    let args = ["arguments", "args", "input", "params"]
        .iter()
        .find_map(|k| v.get(*k))
        .cloned()
        .unwrap_or(Value::Null);
    let args = match args {
        Value::String(s) => crate::trace::arguments_from_string(&s),
        other => other,
    };
    let mut call = Call::tool(name, args);
    call.result = ["result", "output"].iter().find_map(|k| v.get(*k)).cloned();
    call.error = !matches!(
        v.get("error"),
        None | Some(Value::Null | Value::Bool(false))
    );
    Some(call)
}

/// The reply text of a JSON body in no known trace format: the first text field of the usual
/// names, else an error message (`{"error": "..."}` or `{"error": {"message": "..."}}`, as
/// error answers usually are) so that a failed turn's report says what went wrong.
fn default_text(json: &Value) -> String {
    if let Value::String(s) = json {
        return s.clone();
    }
    [
        "reply", "response", "output", "text", "message", "answer", "content",
    ]
    .iter()
    .find_map(|k| json.get(*k).and_then(Value::as_str))
    .or_else(|| {
        let error = json.get("error")?;
        error
            .as_str()
            .or_else(|| error.get("message").and_then(Value::as_str))
    })
    .map(str::to_owned)
    .unwrap_or_default()
}

/// Fills `"{name}"` placeholders of a template.
fn fill(template: &Value, vars: &Map<String, Value>) -> Value {
    match template {
        Value::String(s) => {
            if let Some(name) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}'))
                && let Some(v) = vars.get(name)
            {
                return v.clone();
            }
            let mut out = s.clone();
            for (name, v) in vars {
                let placeholder = format!("{{{name}}}");
                if out.contains(&placeholder) {
                    let text = match v {
                        Value::String(t) => t.clone(),
                        Value::Null => String::new(),
                        other => compact(other),
                    };
                    out = out.replace(&placeholder, &text);
                }
            }
            Value::String(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| fill(i, vars)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill(v, vars)))
                .collect(),
        ),
        other => other.clone(),
    }
}

impl Agent for HttpAgent {
    fn respond(&self, request: AgentRequest) -> BoxFuture<'_, Result<Reply, AgentError>> {
        Box::pin(self.turn(request))
    }
}

impl fmt::Debug for HttpAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<String> = self
            .headers
            .iter()
            .map(|(n, v)| match v {
                HeaderValue::Plain(p) => format!("{n}: {p}"),
                HeaderValue::Secret(_) => format!("{n}: ***"),
            })
            .collect();
        f.debug_struct("HttpAgent")
            .field("method", &self.method.as_str())
            .field("url", &super::wire::shown_url(&self.url))
            .field("headers", &headers)
            .field("timeout", &self.timeout)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        let vars: Map<String, Value> =
            serde_json::from_value(json!({"input": "hi", "USER_ID": 12345, "messages": [1]}))
                .unwrap();
        let t = json!({"prompt": "{input}", "user": "{USER_ID}", "note": "user {USER_ID}: {input}", "m": "{messages}", "keep": "{unknown}", "n": [ "{input}" ]});
        assert_eq!(
            fill(&t, &vars),
            json!({"prompt": "hi", "user": 12345, "note": "user 12345: hi", "m": [1], "keep": "{unknown}", "n": ["hi"]})
        );
    }
}
