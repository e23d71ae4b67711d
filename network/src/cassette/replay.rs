//! Answering a request from its entry: the recorded status, content type and body, a stream's
//! events in order — at once, or at their recorded times.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::channel::Channel;

use super::entry::Entry;
use super::response::{Response, streamed, whole};
use super::sse::render;
use crate::agent::cassette_entries::ENTRY_HEADER;

/// The recorded answer of `entry` (named `id`), after its recorded latency when `timing`.
pub(crate) async fn answer(entry: Entry, id: &str, timing: bool) -> Response {
    let started = tokio::time::Instant::now();
    let response = entry.response;
    if timing {
        tokio::time::sleep(Duration::from_millis(response.latency_ms)).await;
    }
    let mut headers: Vec<(&str, &str)> = response
        .headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    headers.push((ENTRY_HEADER, id));
    let Some(events) = response.events else {
        let body = match (&response.body, &response.text) {
            (Some(json), _) => json.to_string(),
            (None, Some(text)) => text.clone(),
            (None, None) => String::new(),
        };
        return whole(response.status, &headers, body);
    };
    let (mut tx, channel) = Channel::new(16);
    let r = streamed(response.status, &headers, channel);
    tokio::spawn(async move {
        for event in events {
            if timing {
                let at = started + Duration::from_millis(event.offset_ms);
                tokio::time::sleep_until(at).await;
            }
            // A client that went away needs nothing more.
            if tx.send_data(Bytes::from(render(&event))).await.is_err() {
                return;
            }
        }
    });
    r
}
