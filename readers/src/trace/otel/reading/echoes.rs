//! A call seen twice: a span inside a tool call's span that carries that same call again is
//! that call, not another — LlamaIndex's `FunctionTool.task` under the OpenLLMetry step that
//! called the tool (its output the same tool's `ToolOutput`), an instrumentation's error span
//! under the tool that failed (the same tool's name, no other arguments). Such a span is
//! structure, and a failure it reports is the outer call's.

use serde_json::Value;

use super::super::payload::json_text;
use super::super::spans::Span;
use super::super::{Role, ToolSpan};

/// Makes each echo of its parent's call structure, its failure the parent's.
pub(super) fn collapse(spans: &[Span], roles: &mut [Role], parent: &[Option<usize>]) {
    for i in 0..spans.len() {
        let Some(p) = parent.get(i).copied().flatten() else {
            continue;
        };
        let (Some(span), Some(Role::Tool(outer))) = (spans.get(i), roles.get(p)) else {
            continue;
        };
        let echoes = match roles.get(i) {
            Some(Role::Tool(inner)) => {
                inner.name == outer.name
                    && inner
                        .arguments
                        .as_ref()
                        .is_none_or(|a| Some(a) == outer.arguments.as_ref())
            }
            Some(Role::Unknown) => named_tool(span).as_deref() == Some(outer.name.as_str()),
            _ => false,
        };
        if !echoes {
            continue;
        }
        let failure = failure_of(span, roles.get(i));
        if let Some(role) = roles.get_mut(i) {
            *role = Role::Structure;
        }
        if let (Some(why), Some(Role::Tool(outer))) = (failure, roles.get_mut(p))
            && outer.failure.is_none()
        {
            outer.failure = Some(why);
        }
    }
}

/// The tool a span's payload names (`tool_name` in its OpenLLMetry input or output).
fn named_tool(s: &Span) -> Option<String> {
    ["traceloop.entity.output", "traceloop.entity.input"]
        .iter()
        .filter_map(|k| s.attributes.get(*k))
        .map(json_text)
        .find_map(|v| {
            v.get("tool_name")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
}

/// The failure a span reports: its ERROR status, an `exception` event, its call's failure.
fn failure_of(s: &Span, role: Option<&Role>) -> Option<String> {
    let exception = s.events.iter().find(|e| e.name == "exception").map(|e| {
        e.attributes
            .get("exception.message")
            .and_then(super::super::spans::text)
            .unwrap_or_default()
    });
    let own = match role {
        Some(Role::Tool(ToolSpan { failure, .. })) => failure.clone(),
        _ => None,
    };
    exception
        .or(own)
        .or_else(|| s.error.clone())
        .map(|m| if m.is_empty() { "failed".to_owned() } else { m })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    fn span(id: &str, parent: Option<&str>, name: &str, attributes: Value) -> Span {
        let Value::Object(attributes) = attributes else {
            unreachable!()
        };
        Span {
            trace_id: "t".into(),
            span_id: id.into(),
            parent: parent.map(str::to_owned),
            name: name.into(),
            start_ns: 0,
            end_ns: 0,
            attributes,
            events: Vec::new(),
            error: None,
            unknown_status: None,
        }
    }

    #[test]
    fn an_error_span_under_a_tool_is_its_failure_not_a_second_call() {
        let mut error = span("b", Some("a"), "book_hotel", json!({}));
        error.error = Some("sold out".into());
        let spans = vec![
            span("a", None, "book_hotel", Value::Object(Map::new())),
            error,
        ];
        let tool = |args: Option<Value>| {
            Role::Tool(ToolSpan {
                name: "book_hotel".into(),
                arguments: args,
                ..ToolSpan::default()
            })
        };
        let mut roles = vec![tool(Some(json!({"hotel_id": "HTL-205"}))), tool(None)];
        collapse(&spans, &mut roles, &[None, Some(0)]);
        assert_eq!(roles[1], Role::Structure);
        let Role::Tool(outer) = &roles[0] else {
            unreachable!()
        };
        assert_eq!(outer.failure.as_deref(), Some("sold out"));
        // A nested call of the same tool with other arguments is a call of its own.
        let mut roles = vec![
            tool(Some(json!({"hotel_id": "HTL-205"}))),
            tool(Some(json!({"hotel_id": "HTL-311"}))),
        ];
        collapse(&spans, &mut roles, &[None, Some(0)]);
        assert!(matches!(roles[1], Role::Tool(_)));
    }
}
