//! Why a request has no recording: the recorded request closest to it, and where the two
//! differ, path by path (`messages[1].content: recorded "…", now "…"`).

use std::path::Path;

use serde_json::Value;

use super::canonical::Canonical;
use super::entry::Entry;
use super::store::{entries, entry_path};
use agent_test_core::util::text::clip;

/// At most this many differences are counted per entry: enough to rank entries, bounded for
/// huge bodies.
const MAX_COUNTED: usize = 1_000;

/// How many differences a miss names.
const SHOWN: usize = 3;

/// Where two requests differ.
#[derive(Debug, Default)]
struct Differences {
    /// `(path, recorded, now)`, in document order.
    found: Vec<(String, String, String)>,
    /// All differences counted (up to [`MAX_COUNTED`]).
    count: usize,
    /// How much the differing texts differ, in characters (what changed between their common
    /// start and end; 1 for any other value): between two entries that differ at as many
    /// places, the one whose texts are nearer is the closest.
    changed: usize,
}

impl Differences {
    fn add(&mut self, path: &str, recorded: Option<&Value>, now: Option<&Value>) {
        self.count = self.count.saturating_add(1);
        self.changed = self.changed.saturating_add(match (recorded, now) {
            (Some(Value::String(a)), Some(Value::String(b))) => changed_chars(a, b),
            _ => 1,
        });
        if self.found.len() < SHOWN {
            let (recorded, now) = shown(recorded, now);
            self.found.push((
                if path.is_empty() {
                    "the body".to_owned()
                } else {
                    path.to_owned()
                },
                recorded,
                now,
            ));
        }
    }

    fn full(&self) -> bool {
        self.count >= MAX_COUNTED
    }
}

/// How many characters differ between two texts once their common start and end are set
/// aside: the length of an edit that makes one the other (exact for one contiguous change,
/// linear in the texts' length).
fn changed_chars(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (a, b) = (
        a.get(start..).unwrap_or_default(),
        b.get(start..).unwrap_or_default(),
    );
    let end = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    a.len().max(b.len()).saturating_sub(end)
}

/// How many characters of a differing text are shown.
const WINDOW: usize = 60;

/// Two differing values as a message shows them: texts from a little before their first
/// difference (a changed word late in a long prompt is what matters), anything else clipped.
fn shown(recorded: Option<&Value>, now: Option<&Value>) -> (String, String) {
    if let (Some(Value::String(a)), Some(Value::String(b))) = (recorded, now) {
        let first = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        let start = first.saturating_sub(20);
        return (window(a, start), window(b, start));
    }
    let one = |v: Option<&Value>| v.map_or("absent".to_owned(), |v| clip(&v.to_string(), 80));
    (one(recorded), one(now))
}

/// `text` from character `start`, at most [`WINDOW`] characters, quoted as JSON, with `…`
/// where it was cut.
fn window(text: &str, start: usize) -> String {
    let part: String = text.chars().skip(start).take(WINDOW).collect();
    let cut_end = text.chars().count() > start.saturating_add(WINDOW);
    let quoted = Value::String(part).to_string();
    let inner = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or(&quoted);
    format!(
        "\"{}{inner}{}\"",
        if start > 0 { "…" } else { "" },
        if cut_end { "…" } else { "" }
    )
}

/// What separates the path of a text holding JSON from a path inside that JSON:
/// `messages[1].content → checks[0].material.text`.
const INSIDE: &str = " → ";

/// How deep texts holding JSON are read (a judge's prompt in a message, a tool call's
/// arguments): enough for what models are sent, bounded for what a client may send.
const MAX_INSIDE: usize = 2;

/// `path` extended by an object key: `a.b`, or `a["odd key"]`.
fn key_path(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !key.starts_with(|c: char| c.is_ascii_digit());
    match (path.is_empty() || path.ends_with(INSIDE), plain) {
        (true, true) => format!("{path}{key}"),
        (false, true) => format!("{path}.{key}"),
        (_, false) => format!("{path}[{}]", Value::String(key.to_owned())),
    }
}

fn compare(recorded: &Value, now: &Value, path: &str, out: &mut Differences) {
    if out.full() {
        return;
    }
    match (recorded, now) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let p = key_path(path, key);
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => compare(x, y, &p, out),
                    (x, y) => out.add(&p, x, y),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let p = format!("{path}[{i}]");
                match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) => compare(x, y, &p, out),
                    (x, y) => out.add(&p, x, y),
                }
            }
        }
        (a, b) if a == b => {}
        (Value::String(a), Value::String(b)) if path.matches(INSIDE).count() < MAX_INSIDE => {
            // Texts holding JSON (a judge's prompt, a tool call's arguments) differ where
            // their JSON does.
            match (json_in(a), json_in(b)) {
                (Some(x), Some(y)) => compare(&x, &y, &format!("{path}{INSIDE}"), out),
                _ => out.add(
                    path,
                    Some(&Value::String(a.clone())),
                    Some(&Value::String(b.clone())),
                ),
            }
        }
        (a, b) => out.add(path, Some(a), Some(b)),
    }
}

/// The JSON object or array a text holds, if it holds one.
fn json_in(text: &str) -> Option<Value> {
    let trimmed = text.trim_start();
    if !trimmed.starts_with(['{', '[']) {
        return None;
    }
    serde_json::from_str(trimmed).ok()
}

/// How `recorded` differs from `now` (the method and path first, then the body).
fn differences(recorded: &Canonical, now: &Canonical) -> Differences {
    let mut out = Differences::default();
    if recorded.method != now.method {
        out.add(
            "the method",
            Some(&Value::String(recorded.method.clone())),
            Some(&Value::String(now.method.clone())),
        );
    }
    if recorded.path != now.path {
        out.add(
            "the path",
            Some(&Value::String(recorded.path.clone())),
            Some(&Value::String(now.path.clone())),
        );
        // Another endpoint is far from this one, however alike the bodies.
        out.count = out.count.saturating_add(MAX_COUNTED);
    }
    compare(&recorded.body_value(), &now.body_value(), "", &mut out);
    out
}

/// The message for a request `now` that `dir` has no recording of: the closest entry and
/// where it differs, or that the cassette is empty. Also returns the closest entry's id.
pub(crate) fn miss_message(dir: &Path, now: &Canonical) -> (String, Option<String>) {
    let asked = format!("{} {}", now.method, now.path);
    let ids = match entries(dir) {
        Ok(ids) => ids,
        Err(e) => {
            return (
                format!("no recording for this request ({asked}): {e}"),
                None,
            );
        }
    };
    let mut best: Option<(String, Differences)> = None;
    for id in ids {
        let Ok(Some(entry)) = Entry::read(&entry_path(dir, &id)) else {
            continue;
        };
        let d = differences(&entry.request.canonical(), now);
        let nearer = |b: &Differences| (d.count, d.changed) < (b.count, b.changed);
        if best.as_ref().is_none_or(|(_, b)| nearer(b)) {
            best = Some((id, d));
        }
    }
    let Some((id, d)) = best else {
        return (
            format!(
                "no recording for this request ({asked}) in {}: the cassette has no entries (record them with AGENT_TEST_CASSETTE_MODE=record, or the mode `record`)",
                dir.display()
            ),
            None,
        );
    };
    let file = entry_path(dir, &id);
    if d.count == 0 {
        return (
            format!(
                "no recording for this request ({asked}) in {}; {} holds this very request under another name: rename it to {}.json",
                dir.display(),
                file.display(),
                now.id()
            ),
            Some(id),
        );
    }
    let mut said: Vec<String> = d
        .found
        .iter()
        .map(|(path, recorded, now)| format!("{path}: recorded {recorded}, now {now}"))
        .collect();
    let more = d.count.saturating_sub(d.found.len());
    if more > 0 {
        said.push(format!(
            "and {more}{} more",
            if d.full() { " or" } else { "" }
        ));
    }
    (
        format!(
            "no recording for this request ({asked}) in {}; closest: {}, differs at {}",
            dir.display(),
            file.display(),
            said.join("; at ")
        ),
        Some(id),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cassette::canonical::Body;
    use serde_json::json;

    fn request(body: Value) -> Canonical {
        Canonical {
            method: "POST".into(),
            path: "/v1/chat/completions".into(),
            body: Body::Json(body),
        }
    }

    #[test]
    fn differences_are_named_by_path() {
        let a = request(
            json!({"messages": [{"role": "user", "content": "Where is my order?"}], "temperature": 0}),
        );
        let b = request(
            json!({"messages": [{"role": "user", "content": "Where is my parcel?"}], "temperature": 0.2, "odd key": 1}),
        );
        let d = differences(&a, &b);
        assert_eq!(d.count, 3);
        assert_eq!(
            d.found[0],
            (
                "messages[0].content".to_owned(),
                "\"Where is my order?\"".to_owned(),
                "\"Where is my parcel?\"".to_owned()
            )
        );
        assert_eq!(
            d.found[1],
            (
                "[\"odd key\"]".to_owned(),
                "absent".to_owned(),
                "1".to_owned()
            )
        );
        assert_eq!(d.found[2].0, "temperature");
    }

    #[test]
    fn texts_holding_json_and_long_texts_show_where_they_differ() {
        let prompt = |text: &str| {
            json!({"checks": [{"criteria": "apologises", "material": {"text": text}}]}).to_string()
        };
        let a = request(json!({"messages": [{"content": prompt("Sorry for the wait!")}]}));
        let b = request(json!({"messages": [{"content": prompt("It is on its way.")}]}));
        let d = differences(&a, &b);
        assert_eq!(
            d.found[0],
            (
                "messages[0].content → checks[0].material.text".to_owned(),
                "\"Sorry for the wait!\"".to_owned(),
                "\"It is on its way.\"".to_owned()
            )
        );
        let long = "You are Acme's support agent. ".repeat(5);
        let a = request(json!({"system": format!("{long}Be brief.")}));
        let b = request(json!({"system": format!("{long}Be thorough.")}));
        let d = differences(&a, &b);
        assert_eq!(d.found[0].1, "\"…s support agent. Be brief.\"");
        assert_eq!(d.found[0].2, "\"…s support agent. Be thorough.\"");
    }

    #[test]
    fn the_closest_entry_is_the_one_whose_texts_are_nearest() {
        // Two recordings that each differ from the request at one place: the one a character
        // away is the closest, not the first found.
        let dir = std::env::temp_dir().join(format!("agent-test-closest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let body = |text: &str| json!({"messages": [{"role": "user", "content": text}]});
        for text in ["I want to speak to a human", "Where is ORD-1?"] {
            let recorded = request(body(text));
            let entry = serde_json::json!({
                "version": 1,
                "request": {"method": "POST", "path": "/v1/chat/completions", "body": body(text)},
                "response": {"status": 200, "latency_ms": 1, "body": {"ok": true}}
            });
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                entry_path(&dir, &recorded.id()),
                serde_json::to_string(&entry).unwrap(),
            )
            .unwrap();
        }
        let (message, _) = miss_message(&dir, &request(body("Where is ORD-2?")));
        assert!(
            message.contains(
                r#"messages[0].content: recorded "Where is ORD-1?", now "Where is ORD-2?""#
            ),
            "{message}"
        );
        assert_eq!(changed_chars("Where is ORD-1?", "Where is ORD-2?"), 1);
        assert_eq!(changed_chars("abc", "abXYc"), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
