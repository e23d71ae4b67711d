//! The steps of data scenarios that have no `agent_test!` form of their own (there they are
//! plain Rust): HTTP requests named by definition, and checks on the variable bag.

use serde_json::Value;

use super::ScenarioRun;
use agent_test_core::check::Outcome;
use agent_test_core::matcher::json_eq;
use agent_test_core::scenario::VariableOp;
use agent_test_core::util::text::compact;

impl ScenarioRun {
    /// Sends the request defined as `name` in the `requests` context variable with `body`;
    /// returns the response's JSON (its text when it is not JSON; `null` on failure, with an
    /// error verdict saying why).
    pub(crate) async fn request_step(&mut self, name: &str, body: Value) -> Value {
        let label = format!("request `{name}`");
        match self.send_request(name, body).await {
            Ok(v) => v,
            Err(reason) => {
                self.step_error(label, "request", reason);
                Value::Null
            }
        }
    }

    #[cfg(feature = "http")]
    async fn send_request(&mut self, name: &str, body: Value) -> Result<Value, String> {
        let def = self
            .context_vars()
            .get("requests")
            .and_then(|r| r.get(name))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "no request named `{name}`: define it in the `requests` context variable, \
                     e.g. {{\"{name}\": {{\"method\": \"POST\", \"url\": \"http://...\"}}}}"
                )
            })?;
        let (method, url) = match &def {
            Value::String(url) => ("POST".to_owned(), url.clone()),
            Value::Object(o) => (
                o.get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("POST")
                    .to_ascii_uppercase(),
                match o.get("url") {
                    None => return Err(format!("request `{name}` has no `url`")),
                    Some(Value::String(url)) => url.clone(),
                    Some(other) => {
                        return Err(format!(
                            "request `{name}`: `url` must be text, got {}",
                            compact(other)
                        ));
                    }
                },
            ),
            other => {
                return Err(format!(
                    "request `{name}` is defined as {}, expected a URL or {{\"method\", \"url\"}}",
                    compact(other)
                ));
            }
        };
        if !matches!(method.as_str(), "GET" | "POST" | "PUT" | "PATCH" | "DELETE") {
            return Err(format!(
                "request `{name}`: unknown method `{method}`, expected GET, POST, PUT, PATCH or DELETE"
            ));
        }
        let has_body = !(body.is_null() || body.as_object().is_some_and(|o| o.is_empty()));
        if method == "GET" && has_body {
            return Err(format!(
                "request `{name}` is a GET, which sends no body, but the step has inputs: define it with POST"
            ));
        }
        let mut request = agent_test_network::request::Request::method(&method, url);
        match def.get("headers") {
            None | Some(Value::Null) => {}
            Some(Value::Object(headers)) => {
                for (k, v) in headers {
                    let v = v.as_str().ok_or_else(|| {
                        format!(
                            "request `{name}`: header `{k}` must be text, got {}",
                            compact(v)
                        )
                    })?;
                    request = request.header(k.clone(), v);
                }
            }
            Some(other) => {
                return Err(format!(
                    "request `{name}`: `headers` must be an object, got {}",
                    compact(other)
                ));
            }
        }
        if has_body {
            request = request.json(body);
        }
        let response = request.send().await.map_err(|e| e.to_string())?;
        if !response.is_success() {
            return Err(format!(
                "request `{name}` answered HTTP {}: {}",
                response.status,
                response.text.chars().take(200).collect::<String>()
            ));
        }
        Ok(if response.json.is_null() {
            Value::String(response.text)
        } else {
            response.json
        })
    }

    #[cfg(not(feature = "http"))]
    async fn send_request(&mut self, _name: &str, _body: Value) -> Result<Value, String> {
        Err("request steps need agent-test's `http` feature".into())
    }

    /// Records whether the bag's value at `path` compares with `expected` as `op` says.
    pub(crate) fn check_variable(
        &mut self,
        path: &str,
        actual: Option<Value>,
        op: VariableOp,
        expected: &Value,
        label: Option<String>,
        warning: bool,
    ) {
        let label =
            label.unwrap_or_else(|| super::step_verdict::variable_label(path, op, expected));
        let severity = super::step_verdict::variable_severity(warning);
        self.step_verdict_with(
            label,
            "variable",
            variable_outcome(path, actual, op, expected),
            severity,
        );
    }
}

/// Whether the bag's value at `path` (`actual`, absent when the bag has none) compares with
/// `expected` as `op` says: the outcome of a variable check, live or on a recording.
pub(crate) fn variable_outcome(
    path: &str,
    actual: Option<Value>,
    op: VariableOp,
    expected: &Value,
) -> Outcome {
    let present = actual.as_ref().filter(|v| !v.is_null());
    let ok: Result<bool, String> = match (op, &actual) {
        (VariableOp::Exists, _) => Ok(present.is_some()),
        (VariableOp::NotExists, _) => Ok(present.is_none()),
        (_, None) => {
            return Outcome::fail(format!("{path}: no such variable")).expected(expected.clone());
        }
        // As text, `null` would equal `"null"`: nothing was there to compare.
        (VariableOp::TextEquals | VariableOp::TextNotEquals, Some(Value::Null)) => {
            return Outcome::fail(format!("{path}: the value is null")).expected(expected.clone());
        }
        (VariableOp::Equals, Some(a)) => Ok(json_eq(a, expected)),
        (VariableOp::NotEquals, Some(a)) => Ok(!json_eq(a, expected)),
        (VariableOp::TextEquals, Some(a)) => Ok(text_eq(a, expected)),
        (VariableOp::TextNotEquals, Some(a)) => Ok(!text_eq(a, expected)),
        (
            VariableOp::GreaterThan
            | VariableOp::GreaterOrEqual
            | VariableOp::LessThan
            | VariableOp::LessOrEqual,
            Some(a),
        ) => match (number(a), number(expected)) {
            (Some(l), Some(r)) => Ok(match op {
                VariableOp::GreaterThan => l > r,
                VariableOp::GreaterOrEqual => l >= r,
                VariableOp::LessThan => l < r,
                _ => l <= r,
            }),
            (None, _) => Err(format!("{path}: {} is not a number", compact(a))),
            (_, None) => Err(format!(
                "{path}: {} is not a number to compare with",
                compact(expected)
            )),
        },
        (VariableOp::Contains | VariableOp::NotContains, Some(a)) => {
            let found = match a {
                Value::Array(items) => items.iter().any(|i| json_eq(i, expected)),
                other => text(other).contains(&text(expected)),
            };
            Ok(found == (op == VariableOp::Contains))
        }
        (VariableOp::Matches, Some(a)) => {
            let pattern = text(expected);
            match regex::Regex::new(&pattern) {
                Ok(re) => Ok(re.is_match(&text(a))),
                Err(e) => {
                    return Outcome::error(format!(
                        "{path}: invalid regex /{pattern}/: {}",
                        e.to_string().lines().last().unwrap_or_default().trim()
                    ));
                }
            }
        }
    };
    let outcome = match ok {
        Ok(true) => Outcome::passed(),
        Ok(false) => {
            let got = actual
                .as_ref()
                .map_or_else(|| "nothing".to_owned(), compact);
            let wanted = if op.has_right() {
                format!("{} {}", op.phrase(), compact(expected))
            } else {
                op.phrase().to_owned()
            };
            if matches!(op, VariableOp::Equals | VariableOp::TextEquals) {
                Outcome::fail(format!("{path}: expected {}, got {got}", compact(expected)))
            } else {
                Outcome::fail(format!("{path}: expected a value that {wanted}, got {got}"))
            }
        }
        Err(why) => Outcome::fail(why),
    };
    let outcome = if op.has_right() {
        outcome.expected(expected.clone())
    } else {
        outcome
    };
    match actual {
        Some(a) if outcome.status != agent_test_core::check::Status::Pass => outcome.actual(a),
        _ => outcome,
    }
}

/// A number, or text that is one (`"42"`, `" 3.5 "`).
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok().filter(|f: &f64| f.is_finite()),
        _ => None,
    }
}

/// Equal as Lamdis's `eq` compares, as text — except that an object or array is compared
/// as the JSON value the text writes, so key order and spacing do not matter (Lamdis compares
/// `JSON.stringify` text, whose key order is the order the response happened to have).
fn text_eq(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(_) | Value::Array(_), Value::String(s)) => {
            serde_json::from_str::<Value>(s).is_ok_and(|e| json_eq(actual, &e))
        }
        (Value::Object(_) | Value::Array(_), _) => json_eq(actual, expected),
        _ => js_text(actual) == js_text(expected),
    }
}

/// A value as Lamdis's engine turns it into text to compare it: a string as itself, a
/// number as JavaScript writes it (`1500`, not `1500.0`), `true` / `false` / `null`, anything
/// else as compact JSON.
fn js_text(v: &Value) -> String {
    match v {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            // JavaScript writes an integral double without a fraction, within 2^53.
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                format!("{f:.0}")
            }
            _ => n.to_string(),
        },
        other => text(other),
    }
}

/// A value as text: a string as it is, anything else as compact JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => compact(other),
    }
}
