//! Mibo's pushed trace: `{"data": ..., "metadata": {"http_status", "duration_ms"}}`.
//!
//! `data` is an n8n execution (Mibo accepts those pushes), or a generic workflow trace:
//! `output` (or `text`, `response`, `reply`, `message`) for the final text, `nodes` — each with
//! a `name`, `parameters` (or `input`, `arguments`), `output`, an optional `error`, and the
//! `tool_calls` made inside it (`name`, `arguments` or `args` or `input`, `output` or `result`,
//! `error`) — and top-level `tool_calls` for flat traces.

use serde_json::Value;

use super::{TraceError, TraceFormat, final_text, n8n};
use agent_test_core::model::{Call, Reply, Transcript, Turn};

const F: TraceFormat = TraceFormat::Mibo;

pub(super) fn detect(v: &Value) -> bool {
    v.get("data").is_some()
        && (v.get("metadata").is_some_and(Value::is_object)
            || v.get("data")
                .is_some_and(|d| d.get("nodes").is_some_and(Value::is_array)))
}

pub(super) fn parse(v: &Value) -> Result<Transcript, TraceError> {
    let data = v
        .get("data")
        .ok_or_else(|| TraceError::at(F, "$", "expected `data`"))?;
    let mut transcript = if n8n::detect(data) {
        n8n::parse(data).map_err(|e| {
            TraceError::at(
                F,
                format!("$.data{}", e.path.trim_start_matches('$')),
                e.message,
            )
        })?
    } else {
        Transcript::new(vec![Turn::recorded(0, "", generic(data)?)])
    };
    if let Some(meta) = v.get("metadata") {
        let meta = meta.as_object().ok_or_else(|| {
            TraceError::at(
                F,
                "$.metadata",
                "expected an object with `http_status` and `duration_ms`",
            )
        })?;
        let turn = transcript
            .turns
            .last_mut()
            .ok_or_else(|| TraceError::at(F, "$.data", "the trace has no turn"))?;
        if let Some(s) = meta.get("http_status") {
            let status = s
                .as_u64()
                .and_then(|s| u16::try_from(s).ok())
                .ok_or_else(|| {
                    TraceError::at(F, "$.metadata.http_status", "expected an HTTP status code")
                })?;
            turn.reply.http_status = Some(status);
        }
        if let Some(d) = meta.get("duration_ms") {
            let ms = d.as_f64().filter(|ms| *ms >= 0.0).ok_or_else(|| {
                TraceError::at(
                    F,
                    "$.metadata.duration_ms",
                    "expected a duration in milliseconds",
                )
            })?;
            turn.reply.latency_ms = Some(ms as u64);
            turn.latency_ms = Some(ms as u64);
        }
    }
    Ok(transcript)
}

fn generic(data: &Value) -> Result<Reply, TraceError> {
    let mut reply = Reply::text(final_text(data));
    if let Some(nodes) = data.get("nodes") {
        let nodes = nodes
            .as_array()
            .ok_or_else(|| TraceError::at(F, "$.data.nodes", "expected an array of nodes"))?;
        for (i, n) in nodes.iter().enumerate() {
            let path = format!("$.data.nodes[{i}]");
            let name = n.get("name").and_then(Value::as_str).ok_or_else(|| {
                TraceError::at(F, format!("{path}.name"), "expected the node's name")
            })?;
            let mut node = Call::node(name).with_arguments(
                first_of(n, &["parameters", "input", "arguments"])
                    .cloned()
                    .unwrap_or(Value::Null),
            );
            if let Some(out) = n.get("output") {
                node.result = Some(out.clone());
            }
            node.error = is_error(n);
            node.children = tool_calls(n, &path)?;
            reply.calls.push(node);
        }
    }
    reply.calls.extend(tool_calls(data, "$.data")?);
    reply.body = Some(data.clone());
    Ok(reply)
}

fn tool_calls(v: &Value, path: &str) -> Result<Vec<Call>, TraceError> {
    let Some(calls) = v.get("tool_calls") else {
        return Ok(Vec::new());
    };
    let calls = calls.as_array().ok_or_else(|| {
        TraceError::at(
            F,
            format!("{path}.tool_calls"),
            "expected an array of tool calls",
        )
    })?;
    calls
        .iter()
        .enumerate()
        .map(|(j, c)| {
            let name = c.get("name").and_then(Value::as_str).ok_or_else(|| {
                TraceError::at(
                    F,
                    format!("{path}.tool_calls[{j}].name"),
                    "expected the tool's name",
                )
            })?;
            let args = match first_of(c, &["arguments", "args", "input"]) {
                Some(Value::String(s)) => super::arguments_from_string(s),
                Some(other) => other.clone(),
                None => Value::Object(Default::default()),
            };
            let mut call = Call::tool(name, args).with_id_opt(c.get("id").and_then(Value::as_str));
            call.result = first_of(c, &["output", "result"]).cloned();
            call.error = is_error(c);
            if call.error && call.result.is_none() {
                call.result = c.get("error").cloned();
            }
            Ok(call)
        })
        .collect()
}

fn first_of<'v>(v: &'v Value, keys: &[&str]) -> Option<&'v Value> {
    keys.iter().find_map(|k| v.get(*k))
}

fn is_error(v: &Value) -> bool {
    match v.get("error") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(_) => true,
    }
}
