//! What an HTTP agent's bodies hold: the request template filled with a turn's values, and a
//! JSON answer in no known trace format read generically (its text, its calls).

use serde_json::{Map, Value};

use agent_test_core::model::Call;
use agent_test_core::util::text::compact;

/// `application/json`, or any `…+json` type (`application/problem+json`), parameters aside.
pub(super) fn is_json_media_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence.ends_with("+json")
}

/// A call from a generic `{name, arguments, result, error, error_kind}` item (`error_kind`,
/// or `error_type`: `validation` or `execution`, when the agent says why a call failed).
pub(super) fn generic_call(v: &Value) -> Option<Call> {
    let name = v.get("name")?.as_str()?;
    let args = ["arguments", "args", "input", "params"]
        .iter()
        .find_map(|k| v.get(*k))
        .cloned()
        .unwrap_or(Value::Null);
    let args = match args {
        Value::String(s) => agent_test_readers::trace::arguments_from_string(&s),
        other => other,
    };
    let mut call = Call::tool(name, args);
    call.result = ["result", "output"].iter().find_map(|k| v.get(*k)).cloned();
    call.error = !matches!(
        v.get("error"),
        None | Some(Value::Null | Value::Bool(false))
    );
    if call.error {
        call.error_kind = ["error_kind", "error_type"]
            .iter()
            .find_map(|k| v.get(*k).and_then(Value::as_str))
            .and_then(|k| match k {
                "validation" => Some(agent_test_core::model::ToolErrorKind::Validation),
                "execution" => Some(agent_test_core::model::ToolErrorKind::Execution),
                "output" => Some(agent_test_core::model::ToolErrorKind::Output),
                _ => None,
            });
    }
    Some(call)
}

/// The reply text of a JSON body in no known trace format: the first text field of the usual
/// names, else an error message (`{"error": "..."}` or `{"error": {"message": "..."}}`, as
/// error answers usually are) so that a failed turn's report says what went wrong.
pub(super) fn default_text(json: &Value) -> String {
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
pub(super) fn fill(template: &Value, vars: &Map<String, Value>) -> Value {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
