//! The variable bag of a data scenario's steps (Lamdis's): `var` (extracted values and saved
//! responses), `steps.<id>.output`, `last.assistant` and `transcript`, and the `${path}`
//! interpolation that reads it.

use serde_json::{Map, Value, json};

use agent_test_core::compare::path::FieldPath;
use agent_test_core::model::{Transcript, Variable};

/// Variables and step outputs gathered while a scenario runs.
#[derive(Debug, Default)]
pub(crate) struct Bag {
    vars: Map<String, Value>,
    steps: Map<String, Value>,
}

impl Bag {
    /// Sets `var.<name>`; returns the entry a recording keeps.
    pub(crate) fn set_var(&mut self, name: &str, value: Value) -> Variable {
        self.vars.insert(name.to_owned(), value.clone());
        Variable::new(format!("var.{name}"), value)
    }

    /// Sets `steps.<id>.output`; returns the entry a recording keeps.
    pub(crate) fn set_output(&mut self, id: &str, output: Value) -> Variable {
        self.steps
            .insert(id.to_owned(), json!({ "output": output.clone() }));
        Variable::new(format!("steps.{id}.output"), output)
    }

    /// The bag a recording's entries make, in order.
    pub(crate) fn replay(entries: &[Variable]) -> Bag {
        let mut bag = Bag::default();
        for e in entries {
            if let Some(name) = e.path.strip_prefix("var.") {
                bag.set_var(name, e.value.clone());
            } else if let Some(id) = e
                .path
                .strip_prefix("steps.")
                .and_then(|r| r.strip_suffix(".output"))
            {
                bag.set_output(id, e.value.clone());
            }
        }
        bag
    }

    /// The bag as one JSON value, with the conversation so far: as Lamdis's engine roots a
    /// path, `lastAssistant` and `lastUser` are at the top as well as under `last`.
    fn view(&self, transcript: &Transcript) -> Value {
        let last = transcript.turns.last();
        let assistant = last.map_or(Value::Null, |t| Value::String(t.reply.text.clone()));
        let user = last.map_or(Value::Null, |t| Value::String(t.input.clone()));
        json!({
            "var": self.vars,
            "steps": self.steps,
            "last": {"assistant": assistant, "user": user},
            "lastAssistant": assistant,
            "lastUser": user,
            "transcript": transcript.messages(),
        })
    }

    /// The value at `path` (`var.orderId`, `bag.steps.verify.output.status`, `transcript[0]`).
    pub(crate) fn lookup(&self, path: &str, transcript: &Transcript) -> Option<Value> {
        lookup(&self.view(transcript), path).cloned()
    }

    /// `text` with every `${path}` and `$steps.<id>.output...` replaced by the value there
    /// (strings as they are, other values as JSON; a missing value as the empty string).
    pub(crate) fn interpolate(&self, text: &str, transcript: &Transcript) -> String {
        if !text.contains('$') {
            return text.to_owned();
        }
        interpolate(text, &self.view(transcript))
    }

    /// `value` with every string interpolated; a string that is exactly one `${path}` takes
    /// the value itself, keeping its type.
    pub(crate) fn interpolate_value(&self, value: &Value, transcript: &Transcript) -> Value {
        if !mentions_dollar(value) {
            return value.clone();
        }
        let view = self.view(transcript);
        interpolate_value(value, &view)
    }
}

/// Whether some string in `value` has a `$` (without one there is nothing to interpolate).
fn mentions_dollar(value: &Value) -> bool {
    match value {
        Value::String(s) => s.contains('$'),
        Value::Array(items) => items.iter().any(mentions_dollar),
        Value::Object(o) => o.values().any(mentions_dollar),
        _ => false,
    }
}

fn interpolate_value(value: &Value, view: &Value) -> Value {
    match value {
        Value::String(s) => {
            if let Some(path) = s.strip_prefix("${").and_then(|r| r.strip_suffix('}'))
                && !path.contains('}')
                && !path.is_empty()
            {
                // A missing value is the empty string, as in text.
                return lookup(view, path)
                    .cloned()
                    .unwrap_or_else(|| Value::String(String::new()));
            }
            Value::String(interpolate(s, view))
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| interpolate_value(v, view)).collect())
        }
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), interpolate_value(v, view)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn interpolate(text: &str, view: &Value) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(inner) = after.strip_prefix('{')
            && let Some(end) = inner.find('}')
            // An empty placeholder `${}` is not one: it stays as written.
            && end > 0
        {
            out.push_str(&shown(lookup(view, &inner[..end])));
            rest = &inner[end + 1..];
        } else if after.starts_with("steps.") {
            // `$steps.create_acct.output.accountId`: the path runs over word characters,
            // dots and indices.
            let end = after
                .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '[' | ']' | '-')))
                .unwrap_or(after.len());
            let path = after[..end].trim_end_matches('.');
            out.push_str(&shown(lookup(view, path)));
            rest = &after[path.len()..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

fn shown(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The value at a dot path (`var.acct.tags[1]`); a leading `$.` or `$` (JSONPath-like) is
/// dropped, and a leading `bag.` names the bag itself.
fn lookup<'a>(view: &'a Value, path: &str) -> Option<&'a Value> {
    let path = path.trim();
    let path = path
        .strip_prefix("$.")
        .or_else(|| path.strip_prefix('$'))
        .unwrap_or(path);
    let path = path.strip_prefix("bag.").unwrap_or(path);
    if path.is_empty() {
        return None;
    }
    FieldPath::new(path).get(view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_test_core::model::{Reply, Turn};

    #[test]
    fn paths_and_interpolation() {
        let mut bag = Bag::default();
        bag.set_var("amount", json!(500));
        bag.set_var("acct", json!({"accountId": "A-1", "tags": ["x", "y"]}));
        bag.set_output("verify", json!({"status": "completed"}));
        let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 1)]);
        assert_eq!(
            bag.interpolate(
                "Transfer $${bag.var.amount} to ${var.acct.accountId} (${var.acct.tags[1]}), ${missing}",
                &t
            ),
            "Transfer $500 to A-1 (y), "
        );
        assert_eq!(
            bag.interpolate("Status: $steps.verify.output.status.", &t),
            "Status: completed."
        );
        assert_eq!(
            bag.interpolate("${last.assistant} / ${transcript[0].content}", &t),
            "Hello! / hi"
        );
        assert_eq!(
            bag.interpolate_value(&json!({"n": "${var.amount}", "s": "id ${var.amount}"}), &t),
            json!({"n": 500, "s": "id 500"})
        );
        assert_eq!(
            bag.lookup("bag.steps.verify.output.status", &t),
            Some(json!("completed"))
        );
        assert_eq!(bag.interpolate("costs $5", &t), "costs $5");
        // An empty placeholder stays as written; `$.` and `$` lead a path like JSONPath.
        assert_eq!(bag.interpolate("Value: ${} ${ }", &t), "Value: ${} ");
        assert_eq!(bag.interpolate_value(&json!("${}"), &t), json!("${}"));
        assert_eq!(
            bag.interpolate("${$.var.amount} ${$var.amount} ${$.bag.var.amount}", &t),
            "500 500 500"
        );
        assert_eq!(
            bag.lookup("$.steps.verify.output.status", &t),
            Some(json!("completed"))
        );
    }

    #[test]
    fn a_recording_replays_the_bag() {
        let mut bag = Bag::default();
        let entries = vec![
            bag.set_var("orderId", json!("ORD-7")),
            bag.set_output("verify", json!({"status": "completed"})),
        ];
        assert_eq!(entries[0].path, "var.orderId");
        assert_eq!(entries[1].path, "steps.verify.output");
        let t = Transcript::default();
        let replayed = Bag::replay(&entries);
        assert_eq!(replayed.lookup("var.orderId", &t), Some(json!("ORD-7")));
        assert_eq!(
            replayed.lookup("bag.steps.verify.output.status", &t),
            Some(json!("completed"))
        );
    }
}
