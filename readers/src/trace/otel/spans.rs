//! Spans as OTLP/JSON carries them (what exporters and collectors write: `resourceSpans` →
//! `scopeSpans` → `spans`), read into one flat model both conventions are interpreted on.
//!
//! OTLP/JSON's own rules hold: trace and span ids are hex, 64-bit integers are strings or
//! numbers, enums are integers, and fields the reader does not know are ignored (the OTLP
//! specification requires it, so that newer exporters stay readable). Anything else malformed
//! is an error naming its place.

use serde_json::{Map, Value};

use crate::trace::{TraceError, TraceFormat};

/// A span, with its attributes as JSON values.
#[derive(Clone, Debug, PartialEq)]
#[doc(hidden)]
pub struct Span {
    pub trace_id: String,
    pub span_id: String,
    /// The parent span's id; `None` for a root.
    pub parent: Option<String>,
    pub name: String,
    pub start_ns: u64,
    pub end_ns: u64,
    pub attributes: Map<String, Value>,
    pub events: Vec<SpanEvent>,
    /// The status message of a span whose status is ERROR (`Some("")` without a message).
    pub error: Option<String>,
    /// A status code OTLP does not define (0 unset, 1 ok, 2 error are): how the span ended is
    /// unknown.
    pub unknown_status: Option<u64>,
}

/// An event of a span.
#[derive(Clone, Debug, PartialEq)]
#[doc(hidden)]
pub struct SpanEvent {
    pub name: String,
    pub time_ns: u64,
    pub attributes: Map<String, Value>,
}

impl Span {
    /// The attribute `key` as text (a string attribute, or any other value as JSON).
    pub fn text(&self, key: &str) -> Option<String> {
        text(self.attributes.get(key)?)
    }

    /// The attribute `key` as a whole number (an int, or a string or double holding one).
    pub fn count(&self, key: &str) -> Option<u64> {
        count(self.attributes.get(key)?)
    }
}

/// A value as text: a string as itself, anything else as JSON.
pub fn text(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// A value as a whole number, when it is one.
pub fn count(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                .map(|f| f as u64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// Whether a document is OTLP/JSON trace data.
pub fn detect(v: &Value) -> bool {
    requests(v).is_some_and(|r| {
        r.iter()
            .any(|req| req.get("resourceSpans").is_some_and(Value::is_array))
    })
}

/// Whether some span of an OTLP/JSON document has the attribute `key` (read without reading
/// the spans).
pub fn has_attribute(v: &Value, key: &str) -> bool {
    fn list<'a>(v: &'a Value, k: &str) -> impl Iterator<Item = &'a Value> {
        v.get(k).and_then(Value::as_array).into_iter().flatten()
    }
    requests(v).into_iter().flatten().any(|req| {
        list(req, "resourceSpans").any(|rs| {
            ["scopeSpans", "instrumentationLibrarySpans"]
                .iter()
                .any(|sk| {
                    list(rs, sk).any(|ss| {
                        list(ss, "spans").any(|span| {
                            list(span, "attributes")
                                .any(|a| a.get("key").and_then(Value::as_str) == Some(key))
                        })
                    })
                })
        })
    })
}

/// The export requests of a document: one, or an array of them (as a file of several
/// exports holds).
fn requests(v: &Value) -> Option<Vec<&Value>> {
    match v {
        Value::Object(_) => Some(vec![v]),
        Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
            Some(items.iter().collect())
        }
        _ => None,
    }
}

/// Every span of the document, in document order.
pub fn read(v: &Value, format: TraceFormat) -> Result<Vec<Span>, TraceError> {
    let err = |path: String, msg: &str| TraceError::at(format, path, msg);
    let requests = requests(v).ok_or_else(|| {
        err(
            "$".into(),
            "expected an OTLP export (`{\"resourceSpans\": [...]}`) or an array of them",
        )
    })?;
    let many = requests.len() > 1 || v.is_array();
    let mut spans = Vec::new();
    for (r, req) in requests.iter().enumerate() {
        let base = if many {
            format!("$[{r}]")
        } else {
            "$".to_owned()
        };
        let resource_spans = array(req, "resourceSpans", &base, format)?;
        for (i, rs) in resource_spans.iter().enumerate() {
            let at = format!("{base}.resourceSpans[{i}]");
            if !rs.is_object() {
                return Err(err(at, "expected an object"));
            }
            let scope_key = if rs.get("scopeSpans").is_some() {
                "scopeSpans"
            } else {
                // Removed from OTLP in 0.19, still written by old exporters.
                "instrumentationLibrarySpans"
            };
            let scopes = match rs.get(scope_key) {
                None | Some(Value::Null) => continue,
                Some(_) => array(rs, scope_key, &at, format)?,
            };
            for (j, ss) in scopes.iter().enumerate() {
                let at = format!("{at}.{scope_key}[{j}]");
                let list = match ss.get("spans") {
                    None | Some(Value::Null) => continue,
                    Some(_) => array(ss, "spans", &at, format)?,
                };
                for (k, s) in list.iter().enumerate() {
                    spans.push(span(s, &format!("{at}.spans[{k}]"), format)?);
                }
            }
        }
    }
    Ok(spans)
}

fn array<'a>(
    v: &'a Value,
    key: &str,
    at: &str,
    format: TraceFormat,
) -> Result<&'a Vec<Value>, TraceError> {
    match v.get(key) {
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err(TraceError::at(
            format,
            format!("{at}.{key}"),
            "expected an array",
        )),
        None => Err(TraceError::at(
            format,
            format!("{at}.{key}"),
            "missing: expected an array",
        )),
    }
}

fn span(s: &Value, at: &str, format: TraceFormat) -> Result<Span, TraceError> {
    let err = |field: &str, msg: &str| TraceError::at(format, format!("{at}.{field}"), msg);
    if !s.is_object() {
        return Err(TraceError::at(format, at, "expected a span object"));
    }
    let id = |field: &str, required: bool| -> Result<Option<String>, TraceError> {
        match s.get(field) {
            None | Some(Value::Null) if !required => Ok(None),
            Some(Value::String(h)) if h.is_empty() && !required => Ok(None),
            Some(Value::String(h))
                if !h.is_empty()
                    && h.len() % 2 == 0
                    && h.bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                Ok(Some(h.to_ascii_lowercase()))
            }
            _ => Err(err(
                field,
                "expected a hex id (OTLP/JSON writes ids as hex strings)",
            )),
        }
    };
    let time = |field: &str| -> Result<u64, TraceError> {
        match s.get(field) {
            None | Some(Value::Null) => Ok(0),
            Some(v) => count(v).ok_or_else(|| {
                err(
                    field,
                    "expected nanoseconds since the epoch (a number, or a string of one)",
                )
            }),
        }
    };
    let name = match s.get("name") {
        Some(Value::String(n)) => n.clone(),
        None | Some(Value::Null) => String::new(),
        Some(_) => return Err(err("name", "expected a string")),
    };
    let own = attributes(s.get("attributes"), &format!("{at}.attributes"), format)?;
    let mut events = Vec::new();
    if let Some(list) = s.get("events").filter(|e| !e.is_null()) {
        let list = list
            .as_array()
            .ok_or_else(|| err("events", "expected an array"))?;
        for (i, e) in list.iter().enumerate() {
            let eat = format!("{at}.events[{i}]");
            events.push(SpanEvent {
                name: e
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                time_ns: e.get("timeUnixNano").and_then(count).unwrap_or(0),
                attributes: attributes(e.get("attributes"), &format!("{eat}.attributes"), format)?,
            });
        }
    }
    let code = s
        .get("status")
        .and_then(|st| st.get("code"))
        .and_then(count);
    let error = match s.get("status") {
        Some(status) if code == Some(2) => Some(
            status
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        ),
        _ => None,
    };
    let start_ns = time("startTimeUnixNano")?;
    Ok(Span {
        trace_id: id("traceId", true)?.unwrap_or_default(),
        span_id: id("spanId", true)?.unwrap_or_default(),
        parent: id("parentSpanId", false)?,
        name,
        start_ns,
        end_ns: time("endTimeUnixNano")?.max(start_ns),
        attributes: own,
        events,
        error,
        unknown_status: code.filter(|c| *c > 2),
    })
}

/// OTLP's `[{"key", "value": AnyValue}]` as a JSON object.
fn attributes(
    list: Option<&Value>,
    at: &str,
    format: TraceFormat,
) -> Result<Map<String, Value>, TraceError> {
    let mut out = Map::new();
    let Some(list) = list.filter(|l| !l.is_null()) else {
        return Ok(out);
    };
    let list = list
        .as_array()
        .ok_or_else(|| TraceError::at(format, at, "expected an array of {\"key\", \"value\"}"))?;
    for (i, kv) in list.iter().enumerate() {
        let key = kv
            .get("key")
            .and_then(Value::as_str)
            .ok_or_else(|| TraceError::at(format, format!("{at}[{i}].key"), "expected a string"))?;
        let value = any_value(kv.get("value"), &format!("{at}[{i}].value"), format, 0)?;
        out.insert(key.to_owned(), value);
    }
    Ok(out)
}

/// Nesting allowed in an attribute value (arrays and key-value lists).
const MAX_VALUE_DEPTH: usize = 32;

/// An OTLP `AnyValue` as JSON: strings, booleans, numbers; arrays; key-value lists as objects;
/// bytes as their base64 text. An empty value (`{}`) is null.
fn any_value(
    v: Option<&Value>,
    at: &str,
    format: TraceFormat,
    depth: usize,
) -> Result<Value, TraceError> {
    let err = |msg: &str| TraceError::at(format, at, msg);
    if depth > MAX_VALUE_DEPTH {
        return Err(err("nested too deep"));
    }
    let Some(Value::Object(o)) = v else {
        return match v {
            None | Some(Value::Null) => Ok(Value::Null),
            Some(_) => Err(err("expected an AnyValue object ({\"stringValue\": ...})")),
        };
    };
    let Some((kind, inner)) = o.iter().next() else {
        return Ok(Value::Null);
    };
    Ok(match kind.as_str() {
        "stringValue" | "bytesValue" => match inner {
            Value::String(_) => inner.clone(),
            _ => return Err(err(&format!("`{kind}`: expected a string"))),
        },
        "boolValue" => match inner {
            Value::Bool(_) => inner.clone(),
            _ => return Err(err("`boolValue`: expected true or false")),
        },
        "intValue" => match inner {
            Value::Number(_) => inner.clone(),
            Value::String(s) => s
                .trim()
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| err("`intValue`: expected an integer (or a string of one)"))?,
            _ => return Err(err("`intValue`: expected an integer (or a string of one)")),
        },
        "doubleValue" => match inner {
            Value::Number(_) => inner.clone(),
            // The JSON mapping of protobuf writes NaN and infinities as strings.
            Value::String(_) => Value::Null,
            _ => return Err(err("`doubleValue`: expected a number")),
        },
        "arrayValue" => {
            let values = match inner.get("values") {
                None | Some(Value::Null) => return Ok(Value::Array(Vec::new())),
                Some(Value::Array(a)) => a,
                Some(_) => return Err(err("`arrayValue.values`: expected an array")),
            };
            let mut out = Vec::with_capacity(values.len());
            for (i, item) in values.iter().enumerate() {
                out.push(any_value(
                    Some(item),
                    &format!("{at}.arrayValue.values[{i}]"),
                    format,
                    depth + 1,
                )?);
            }
            Value::Array(out)
        }
        "kvlistValue" => {
            let mut out = Map::new();
            if let Some(values) = inner.get("values").filter(|v| !v.is_null()) {
                let values = values
                    .as_array()
                    .ok_or_else(|| err("`kvlistValue.values`: expected an array"))?;
                for (i, kv) in values.iter().enumerate() {
                    let kat = format!("{at}.kvlistValue.values[{i}]");
                    let key = kv.get("key").and_then(Value::as_str).ok_or_else(|| {
                        TraceError::at(format, format!("{kat}.key"), "expected a string")
                    })?;
                    out.insert(
                        key.to_owned(),
                        any_value(kv.get("value"), &format!("{kat}.value"), format, depth + 1)?,
                    );
                }
            }
            Value::Object(out)
        }
        // A kind from a newer OTLP: ignored, as the specification asks.
        _ => Value::Null,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const F: TraceFormat = TraceFormat::Otel;

    #[test]
    fn reads_spans_with_every_kind_of_value() {
        let doc = json!({"resourceSpans": [{"resource": {}, "scopeSpans": [{"spans": [{
            "traceId": "5B8EFFF798038103D269B633813FC60C", "spanId": "EEE19B7EC3C1B174",
            "parentSpanId": "", "name": "invoke_agent", "kind": 1,
            "startTimeUnixNano": "1544712660000000000", "endTimeUnixNano": 1544712661000000000u64,
            "attributes": [
                {"key": "s", "value": {"stringValue": "x"}},
                {"key": "i", "value": {"intValue": "42"}},
                {"key": "d", "value": {"doubleValue": 0.5}},
                {"key": "b", "value": {"boolValue": true}},
                {"key": "a", "value": {"arrayValue": {"values": [{"stringValue": "y"}, {"intValue": 1}]}}},
                {"key": "k", "value": {"kvlistValue": {"values": [{"key": "z", "value": {"boolValue": false}}]}}},
                {"key": "e", "value": {}}
            ],
            "events": [{"name": "gen_ai.choice", "timeUnixNano": "5", "attributes": []}],
            "status": {"code": 2, "message": "boom"}
        }]}]}]});
        let spans = read(&doc, F).unwrap();
        let s = &spans[0];
        assert_eq!(s.trace_id, "5b8efff798038103d269b633813fc60c");
        assert_eq!(s.parent, None);
        assert_eq!(s.end_ns - s.start_ns, 1_000_000_000);
        assert_eq!(
            Value::Object(s.attributes.clone()),
            json!({"s": "x", "i": 42, "d": 0.5, "b": true, "a": ["y", 1], "k": {"z": false}, "e": null})
        );
        assert_eq!(s.events[0].name, "gen_ai.choice");
        assert_eq!(s.error.as_deref(), Some("boom"));
        assert!(detect(&doc));
        assert!(detect(&json!([doc.clone(), doc])));
        assert!(!detect(&json!({"spans": []})));
    }

    #[test]
    fn malformed_spans_name_their_place() {
        let bad = |span: Value| {
            read(
                &json!({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}),
                F,
            )
            .unwrap_err()
            .to_string()
        };
        assert_eq!(
            bad(json!({"traceId": "QQ", "spanId": "01"})),
            "otel trace: at $.resourceSpans[0].scopeSpans[0].spans[0].traceId: expected a hex id (OTLP/JSON writes ids as hex strings)"
        );
        assert_eq!(
            bad(json!({"traceId": "01", "spanId": "01", "startTimeUnixNano": "soon"})),
            "otel trace: at $.resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: expected nanoseconds since the epoch (a number, or a string of one)"
        );
        assert_eq!(
            bad(
                json!({"traceId": "01", "spanId": "01", "attributes": [{"key": "n", "value": {"intValue": "x"}}]})
            ),
            "otel trace: at $.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value: `intValue`: expected an integer (or a string of one)"
        );
        assert_eq!(
            read(&json!({"resourceSpans": {}}), F)
                .unwrap_err()
                .to_string(),
            "otel trace: at $.resourceSpans: expected an array"
        );
    }
}
