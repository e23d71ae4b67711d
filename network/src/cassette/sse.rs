//! Server-sent events: read from a stream as its chunks arrive (each event with the time it
//! ended), and written back as the same events. Comments (`: ping`) and `retry:` fields are
//! not kept; lines end with LF or CRLF.

use serde_json::Value;

use super::entry::Event;

/// Reads events from a stream's chunks.
#[derive(Debug, Default)]
pub(crate) struct SseReader {
    /// The start of a line not yet ended.
    partial: Vec<u8>,
    /// The event being read.
    current: Pending,
    events: Vec<Event>,
    /// Why the stream cannot be recorded (a line that is not UTF-8).
    broken: Option<String>,
}

#[derive(Debug, Default)]
struct Pending {
    event: Option<String>,
    id: Option<String>,
    data: Option<String>,
}

impl Pending {
    fn is_empty(&self) -> bool {
        self.event.is_none() && self.id.is_none() && self.data.is_none()
    }
}

impl SseReader {
    /// Reads a chunk that arrived `offset_ms` after the request was sent.
    pub(crate) fn push(&mut self, chunk: &[u8], offset_ms: u64) {
        if self.broken.is_some() {
            return;
        }
        self.partial.extend_from_slice(chunk);
        while let Some(end) = self.partial.iter().position(|b| *b == b'\n') {
            let rest = self.partial.split_off(end.saturating_add(1));
            let mut line = std::mem::replace(&mut self.partial, rest);
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            match String::from_utf8(line) {
                Ok(line) => self.line(&line, offset_ms),
                Err(_) => {
                    self.broken = Some("the event stream is not UTF-8 text".to_owned());
                    return;
                }
            }
        }
    }

    fn line(&mut self, line: &str, offset_ms: u64) {
        if line.is_empty() {
            self.dispatch(offset_ms);
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "event" => self.current.event = Some(value.to_owned()),
            "id" => self.current.id = Some(value.to_owned()),
            "data" => match &mut self.current.data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => self.current.data = Some(value.to_owned()),
            },
            // `retry:` and unknown fields say nothing a replay needs.
            _ => {}
        }
    }

    fn dispatch(&mut self, offset_ms: u64) {
        let pending = std::mem::take(&mut self.current);
        if pending.is_empty() {
            return;
        }
        let (data, text) = match pending.data {
            Some(d) => match serde_json::from_str::<Value>(&d) {
                Ok(v) => (Some(v), None),
                Err(_) => (None, Some(d)),
            },
            None => (None, None),
        };
        self.events.push(Event {
            offset_ms,
            event: pending.event,
            id: pending.id,
            data,
            text,
        });
    }

    /// The events, once the stream ended `offset_ms` after the request; an event the stream
    /// did not close with a blank line is kept (it was sent).
    pub(crate) fn finish(mut self, offset_ms: u64) -> Result<Vec<Event>, String> {
        if let Some(why) = self.broken {
            return Err(why);
        }
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            match String::from_utf8(line) {
                Ok(line) => self.line(line.trim_end_matches('\r'), offset_ms),
                Err(_) => return Err("the event stream is not UTF-8 text".to_owned()),
            }
        }
        self.dispatch(offset_ms);
        Ok(self.events)
    }
}

/// An event as a stream carries it, blank line included.
pub(crate) fn render(event: &Event) -> String {
    let mut out = String::new();
    if let Some(name) = &event.event {
        out.push_str(&format!("event: {name}\n"));
    }
    if let Some(id) = &event.id {
        out.push_str(&format!("id: {id}\n"));
    }
    if let Some(data) = &event.data {
        out.push_str(&format!("data: {data}\n"));
    }
    if let Some(text) = &event.text {
        for line in text.split('\n') {
            out.push_str(&format!("data: {line}\n"));
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_split_across_chunks_are_read_whole() {
        let mut r = SseReader::default();
        r.push(b"event: message_start\r\ndata: {\"type\":", 3);
        r.push(b" \"message_start\"}\r\n\r\n: keep-alive\n\ndata: [DO", 7);
        r.push(b"NE]\n\ndata: a\ndata: b\n", 9);
        let events = r.finish(12).unwrap();
        assert_eq!(events.len(), 3);
        assert_eq!(events[0].event.as_deref(), Some("message_start"));
        assert_eq!(events[0].data, Some(json!({"type": "message_start"})));
        assert_eq!(events[0].offset_ms, 7);
        assert_eq!(events[1].text.as_deref(), Some("[DONE]"));
        assert_eq!(events[2].text.as_deref(), Some("a\nb"));
        assert_eq!(events[2].offset_ms, 12);
        assert_eq!(
            render(&events[0]),
            "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
        );
        assert_eq!(render(&events[2]), "data: a\ndata: b\n\n");
    }

    #[test]
    fn a_stream_that_is_not_text_is_refused() {
        let mut r = SseReader::default();
        r.push(b"data: \xff\n\n", 1);
        assert!(r.finish(2).is_err());
    }
}
