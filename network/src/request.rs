//! HTTP calls for a scenario's setup and verification (Lamdis's `request` step), as plain Rust:
//! `let` bindings are the variable bag, so a response feeds later turns and checks directly.
//!
//! ```no_run
//! use agent_test::request;
//! use serde_json::json;
//! # async fn demo() -> Result<(), request::RequestError> {
//! let customer = request::post("http://127.0.0.1:8080/test/customers")
//!     .json(json!({"name": "Ana", "plan": "premium"}))
//!     .send()
//!     .await?;
//! assert_eq!(customer.status, 201);
//! let id = customer.json["id"].as_str().unwrap_or_default();
//! let orders = request::get(format!("http://127.0.0.1:8080/test/customers/{id}/orders")).send().await?;
//! # let _ = orders;
//! # Ok(()) }
//! ```

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

use crate::agent::AgentError;
use crate::agent::wire::{DEFAULT_MAX_BODY_BYTES, Secret, client, read_body, request_error};

/// A request being built: method, URL, headers (secret ones never printed), JSON body, timeout.
///
/// See the [module documentation](self).
#[derive(Debug)]
pub struct Request {
    /// The method, or the text that is not one (an error when sent).
    method: Result<reqwest::Method, String>,
    url: String,
    headers: Vec<(String, Secret)>,
    body: Option<Value>,
    timeout: Duration,
}

/// A `GET` request.
///
/// See the [module documentation](self).
pub fn get(url: impl Into<String>) -> Request {
    Request::new(reqwest::Method::GET, url)
}

/// A `POST` request.
///
/// See the [module documentation](self).
pub fn post(url: impl Into<String>) -> Request {
    Request::new(reqwest::Method::POST, url)
}

impl Request {
    /// A request with any method (`"PUT"`, `"DELETE"`, ...); text that is not an HTTP method
    /// is an error when sent.
    ///
    /// ```
    /// # use agent_test::request::Request;
    /// let r = Request::method("DELETE", "http://127.0.0.1:8080/test/customers/7");
    /// # let _ = r;
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let err = Request::method("GE T", "http://127.0.0.1:9/").send().await.unwrap_err();
    /// assert_eq!(err.to_string(), "`GE T` is not an HTTP method");
    /// # });
    /// ```
    pub fn method(method: &str, url: impl Into<String>) -> Request {
        let m = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes())
            .map_err(|_| format!("`{method}` is not an HTTP method"));
        Request::with(m, url)
    }

    fn new(method: reqwest::Method, url: impl Into<String>) -> Request {
        Request::with(Ok(method), url)
    }

    fn with(method: Result<reqwest::Method, String>, url: impl Into<String>) -> Request {
        Request {
            method,
            url: url.into(),
            headers: Vec::new(),
            body: None,
            timeout: Duration::from_secs(30),
        }
    }

    /// Adds a header; its value never appears in `Debug` output or errors.
    ///
    /// ```
    /// # use agent_test::request;
    /// let r = request::get("http://127.0.0.1:8080/health").header("Authorization", "Bearer t0ken");
    /// assert!(!format!("{r:?}").contains("t0ken"));
    /// ```
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), Secret::new(value)));
        self
    }

    /// Sends this JSON as the body.
    ///
    /// See the [module documentation](self).
    pub fn json(mut self, body: Value) -> Self {
        self.body = Some(body);
        self
    }

    /// How long the call may take (default 30 s).
    ///
    /// ```
    /// # use agent_test::request;
    /// let r = request::get("http://127.0.0.1:8080/health").timeout(std::time::Duration::from_secs(2));
    /// # let _ = r;
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sends the request. Any status is a response (check `status`); no answer, a refused
    /// connection or a body over 10 MiB is an error.
    ///
    /// See the [module documentation](self).
    pub async fn send(self) -> Result<Response, RequestError> {
        // One client (and TLS setup) for every request; each has its own timeout.
        static CLIENT: OnceLock<Result<reqwest::Client, AgentError>> = OnceLock::new();
        let http = CLIENT
            .get_or_init(|| client(Duration::from_secs(24 * 3600)))
            .as_ref()
            .map_err(|e| RequestError::from(e.clone()))?;
        let method = self.method.clone().map_err(RequestError)?;
        let mut builder = http.request(method, &self.url).timeout(self.timeout);
        for (name, value) in &self.headers {
            builder = builder.header(name.as_str(), value.expose());
        }
        if let Some(body) = &self.body {
            builder = builder.json(body);
        }
        let response = builder
            .send()
            .await
            .map_err(|e| request_error(&e, &self.url, self.timeout))?;
        let status = response.status().as_u16();
        let bytes = read_body(response, DEFAULT_MAX_BODY_BYTES, &self.url, self.timeout).await?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Ok(Response { status, json, text })
    }
}

/// What a request got back.
///
/// ```
/// use agent_test::request::Response;
/// let r = Response { status: 200, json: serde_json::json!({"id": 7}), text: r#"{"id":7}"#.into() };
/// assert!(r.is_success());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// The body as JSON (`Null` when it is not JSON).
    pub json: Value,
    /// The body as text.
    pub text: String,
}

impl Response {
    /// A 2xx status.
    ///
    /// See the type's example.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// A request that got no response, with a message that names the URL (without its query
/// string) and the cause.
///
/// ```
/// use agent_test::request::RequestError;
/// let e = RequestError("cannot connect to http://127.0.0.1:9".into());
/// assert_eq!(e.to_string(), "cannot connect to http://127.0.0.1:9");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError(pub String);

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RequestError {}

impl From<AgentError> for RequestError {
    fn from(e: AgentError) -> Self {
        RequestError(e.message().to_owned())
    }
}
