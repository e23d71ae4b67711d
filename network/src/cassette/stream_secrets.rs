//! Secrets a stream spreads over its events.
//!
//! A streamed answer carries its text in pieces — chat completions' `delta.content` and
//! `delta.tool_calls[].function.arguments`, the Responses API's `delta`, Anthropic's
//! `delta.text` and `delta.partial_json` — so a key the model repeats arrives four characters
//! per event, and no single event holds it. Each string field of the events' data is one
//! *channel* (its JSON Pointer, array places included: every chunk of one choice's content is
//! at `/choices/0/delta/content`), read in event order as the client reassembles it; a secret
//! found in a channel's whole text is replaced by `***` where it starts and removed from the
//! pieces after, so the reassembled text reads exactly as a redacted whole would.
//!
//! Pieces of two channels are never joined (a secret cannot be spread over a content and an
//! id); pieces of one channel that belong to different content blocks or tool calls are — a
//! secret can only be over-redacted that way, never kept.

use serde_json::Value;

use super::entry::Event;
use crate::agent::wire::{REDACTED, Redactor};

/// Where a piece of a channel is: its event, and the field (`None`: the event's text).
struct Piece {
    event: usize,
    pointer: Option<String>,
    text: String,
}

/// Redacts the secrets the events' pieces spell together, in place.
pub(crate) fn redact(events: &mut [Event], redactor: &Redactor) {
    if redactor.is_empty() {
        return;
    }
    for mut channel in channels(events) {
        let whole: String = channel.iter().map(|p| p.text.as_str()).collect();
        let found = redactor.find(&whole);
        if found.is_empty() {
            continue;
        }
        // Each piece's edits, from its end back, so earlier places stay valid.
        let mut start = 0;
        for piece in &mut channel {
            let end = start + piece.text.len();
            for secret in found.iter().rev() {
                let (from, to) = (secret.start.max(start), secret.end.min(end));
                if from >= to {
                    continue;
                }
                let put = if (start..end).contains(&secret.start) {
                    REDACTED
                } else {
                    ""
                };
                piece.text.replace_range(from - start..to - start, put);
            }
            start = end;
        }
        for piece in channel {
            write_back(events, piece);
        }
    }
}

/// The events' pieces, by channel, each in event order.
fn channels(events: &[Event]) -> Vec<Vec<Piece>> {
    let mut channels: Vec<(Option<String>, Vec<Piece>)> = Vec::new();
    let mut add = |event: usize, pointer: Option<String>, text: &str| {
        let piece = Piece {
            event,
            pointer: pointer.clone(),
            text: text.to_owned(),
        };
        match channels.iter_mut().find(|(p, _)| *p == pointer) {
            Some((_, pieces)) => pieces.push(piece),
            None => channels.push((pointer, vec![piece])),
        }
    };
    for (i, event) in events.iter().enumerate() {
        if let Some(data) = &event.data {
            let mut leaves = Vec::new();
            strings(data, String::new(), &mut leaves);
            for (pointer, text) in leaves {
                add(i, Some(pointer), text);
            }
        }
        if let Some(text) = &event.text {
            add(i, None, text);
        }
    }
    channels.into_iter().map(|(_, pieces)| pieces).collect()
}

/// The string leaves of `value`, with their JSON Pointers.
fn strings<'v>(value: &'v Value, pointer: String, out: &mut Vec<(String, &'v str)>) {
    match value {
        Value::String(s) => out.push((pointer, s)),
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                strings(v, format!("{pointer}/{i}"), out);
            }
        }
        Value::Object(fields) => {
            for (k, v) in fields {
                let key = k.replace('~', "~0").replace('/', "~1");
                strings(v, format!("{pointer}/{key}"), out);
            }
        }
        _ => {}
    }
}

fn write_back(events: &mut [Event], piece: Piece) {
    let Some(event) = events.get_mut(piece.event) else {
        return;
    };
    match &piece.pointer {
        Some(pointer) => {
            if let Some(slot) = event.data.as_mut().and_then(|d| d.pointer_mut(pointer)) {
                *slot = Value::String(piece.text);
            }
        }
        None => event.text = Some(piece.text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::wire::Secret;
    use serde_json::json;

    fn event(data: Value) -> Event {
        Event {
            offset_ms: 0,
            event: None,
            id: None,
            data: Some(data),
            text: None,
        }
    }

    fn delta(content: &str) -> Event {
        event(json!({"id": "chatcmpl-1", "choices": [{"index": 0, "delta": {"content": content}}]}))
    }

    fn content(events: &[Event]) -> String {
        events
            .iter()
            .filter_map(|e| {
                e.data
                    .as_ref()?
                    .pointer("/choices/0/delta/content")?
                    .as_str()
            })
            .collect()
    }

    #[test]
    fn a_secret_spread_over_deltas_is_redacted_as_a_whole() {
        let key = "sk-SENTINEL-7f3a9c1e5b";
        let redactor = Redactor::new(&[Secret::new(key)]);
        let mut text = format!("Your key is {key}, keep it safe.");
        let mut events: Vec<Event> = text
            .as_bytes()
            .chunks(4)
            .map(|c| delta(std::str::from_utf8(c).unwrap()))
            .collect();
        redact(&mut events, &redactor);
        redactor.string(&mut text);
        assert_eq!(content(&events), text);
        assert_eq!(text, "Your key is ***, keep it safe.");
        let all =
            serde_json::to_string(&events.iter().map(|e| &e.data).collect::<Vec<_>>()).unwrap();
        for piece in key.as_bytes().chunks(4).skip(1) {
            assert!(!all.contains(std::str::from_utf8(piece).unwrap()), "{all}");
        }
        // The other fields are untouched.
        assert!(
            events
                .iter()
                .all(|e| e.data.as_ref().unwrap()["id"] == "chatcmpl-1")
        );
    }

    #[test]
    fn tool_call_arguments_and_anthropic_deltas_and_raw_text() {
        let key = "customer-4711-secret";
        let redactor = Redactor::new(&[Secret::new(key)]);
        let args = format!("{{\"note\":\"{key}\"}}");
        let mut events: Vec<Event> = args
            .as_bytes()
            .chunks(5)
            .map(|c| {
                event(
                    json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
                    "function": {"arguments": std::str::from_utf8(c).unwrap()}}]}}]}),
                )
            })
            .collect();
        events.extend(key.as_bytes().chunks(3).map(|c| {
            event(json!({"type": "content_block_delta", "index": 1,
                         "delta": {"type": "text_delta", "text": std::str::from_utf8(c).unwrap()}}))
        }));
        events.extend(["cust", "omer-4711-se", "cret!"].map(|t| Event {
            offset_ms: 0,
            event: None,
            id: None,
            data: None,
            text: Some(t.to_owned()),
        }));
        redact(&mut events, &redactor);
        let joined = |pointer: &str| -> String {
            events
                .iter()
                .filter_map(|e| e.data.as_ref()?.pointer(pointer)?.as_str())
                .collect()
        };
        assert_eq!(
            joined("/choices/0/delta/tool_calls/0/function/arguments"),
            "{\"note\":\"***\"}"
        );
        assert_eq!(joined("/delta/text"), "***");
        let text: String = events.iter().filter_map(|e| e.text.as_deref()).collect();
        assert_eq!(text, "***!");
    }

    #[test]
    fn pieces_of_different_fields_are_not_joined() {
        let redactor = Redactor::new(&[Secret::new("abcdefgh12")]);
        let mut events = vec![event(json!({"a": "abcde", "b": "fgh12"}))];
        redact(&mut events, &redactor);
        assert_eq!(events[0].data, Some(json!({"a": "abcde", "b": "fgh12"})));
    }
}
