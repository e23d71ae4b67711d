//! Forwarding a request to the provider and recording the answer: the answer streams back to
//! the client as it comes, and the entry is written before the client's body ends — a client
//! that has its whole answer can count on the entry being on disk.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::channel::Channel;
use serde_json::Value;

use super::canonical::Canonical;
use super::decoding::Decoding;
use super::entry::{Entry, RecordedRequest, RecordedResponse, VERSION};
use super::headers::{self, is_json, media_type};
use super::response::{Response, failure};
use super::shared::{Shared, UPSTREAM_TIMEOUT};
use super::sse::SseReader;
use super::store::{entry_path, write_whole};
use crate::agent::cassette_entries::ENTRY_HEADER;
use crate::agent::wire::{Redactor, request_error};

/// The largest answer recorded; a larger one is passed on, not stored.
const MAX_RECORDED: usize = 64 * 1024 * 1024;

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Why an answer with this status is passed on but not recorded: what it says is about the
/// moment (a rate limit, an outage) or the key, not the request, and a replay would repeat it
/// forever.
fn not_recorded(status: u16) -> Option<String> {
    match status {
        401 | 403 | 407 => Some(format!(
            "the provider refused the credentials (HTTP {status}): an answer about the key, not the request"
        )),
        429 => Some("the provider is rate limiting (HTTP 429): a passing answer".to_owned()),
        500..=599 => Some(format!(
            "the provider failed (HTTP {status}): a passing answer"
        )),
        _ => None,
    }
}

/// Forwards the request to the provider and answers with its answer, recording it.
pub(crate) async fn forward(
    shared: &Arc<Shared>,
    parts: hyper::http::request::Parts,
    body: Bytes,
    canonical: Canonical,
    id: String,
    redactor: Redactor,
) -> Response {
    let asked = format!("{} {}", canonical.method, canonical.path);
    let client = match shared.client() {
        Ok(c) => c,
        Err(e) => return failure(502, &format!("agent-test cassette: {e}"), false),
    };
    let url = format!(
        "{}{}",
        shared.origin,
        parts.uri.path_and_query().map_or("/", |p| p.as_str())
    );
    let mut sent = hyper::HeaderMap::new();
    for (name, value) in &parts.headers {
        if headers::forwarded(name) {
            sent.append(name.clone(), value.clone());
        }
    }
    // No coding, asked for plainly: an answer the proxy can read and store.
    sent.insert(
        hyper::header::ACCEPT_ENCODING,
        hyper::header::HeaderValue::from_static("identity"),
    );
    let started = Instant::now();
    let upstream = client
        .request(parts.method.clone(), &url)
        .headers(sent)
        .body(body)
        .send()
        .await;
    let upstream = match upstream {
        Ok(r) => r,
        Err(e) => {
            let mut why = request_error(&e, &url, UPSTREAM_TIMEOUT)
                .message()
                .to_owned();
            redactor.string(&mut why);
            let message = format!("agent-test cassette: cannot forward {asked}: {why}");
            shared.problem(message.clone());
            return failure(502, &message, false);
        }
    };
    let latency_ms = ms(started.elapsed());
    let status = upstream.status().as_u16();
    let coding = upstream.headers().get(hyper::header::CONTENT_ENCODING);
    let (decoding, refusal) = match Decoding::of(coding.and_then(|v| v.to_str().ok())) {
        Ok(d) => (d, not_recorded(status)),
        Err(other) => (
            Decoding::Identity,
            Some(format!(
                "the answer is encoded with `{other}`, which agent-test cannot decode (it asked \
                 for no encoding)"
            )),
        ),
    };
    let (tx, channel) = Channel::new(16);
    let mut response = hyper::Response::new(channel);
    *response.status_mut() = upstream.status();
    for (name, value) in upstream.headers() {
        if headers::forwarded(name) {
            response.headers_mut().append(name.clone(), value.clone());
        }
    }
    // An answer passed on still encoded keeps its coding, for the client to decode.
    if !decoding.decodes()
        && let Some(coding) = coding
    {
        response
            .headers_mut()
            .insert(hyper::header::CONTENT_ENCODING, coding.clone());
    }
    // The entry is named only when it is going to be written.
    if refusal.is_none()
        && let Ok(v) = hyper::header::HeaderValue::from_str(&id)
    {
        response.headers_mut().insert(ENTRY_HEADER, v);
    }
    let recording = Recording {
        shared: Arc::clone(shared),
        id,
        asked,
        request: RecordedRequest::of(
            &canonical,
            headers::stored_request(&parts.headers, &redactor),
        ),
        stored_headers: headers::stored_response(upstream.headers(), &redactor),
        media: media_type(
            upstream
                .headers()
                .get(hyper::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok()),
        ),
        status,
        latency_ms,
        refusal,
        redactor,
        started,
    };
    tokio::spawn(recording.relay(upstream, decoding, tx));
    response
}

/// An answer being passed on and recorded.
struct Recording {
    shared: Arc<Shared>,
    id: String,
    /// The request, as messages name it.
    asked: String,
    request: RecordedRequest,
    stored_headers: std::collections::BTreeMap<String, String>,
    media: String,
    status: u16,
    latency_ms: u64,
    refusal: Option<String>,
    redactor: Redactor,
    started: Instant,
}

impl Recording {
    /// Passes the answer on as it comes; records it before the client's body ends.
    async fn relay(
        self,
        mut upstream: reqwest::Response,
        mut decoding: Decoding,
        tx: http_body_util::channel::Sender<Bytes, std::io::Error>,
    ) {
        let mut events = (self.media == "text/event-stream").then(SseReader::default);
        let mut whole: Vec<u8> = Vec::new();
        let mut seen: usize = 0;
        let mut client = Some(tx);
        let mut ended = false;
        loop {
            let next = match upstream.chunk().await {
                Ok(Some(chunk)) => decoding.feed(chunk).map(Some),
                Ok(None) if ended => Ok(None),
                Ok(None) => {
                    ended = true;
                    decoding.finish().map(Some)
                }
                Err(e) => {
                    let mut why = e.without_url().to_string();
                    self.redactor.string(&mut why);
                    Err(why)
                }
            };
            match next {
                Ok(Some(chunk)) if chunk.is_empty() => {}
                Ok(Some(chunk)) => {
                    seen = seen.saturating_add(chunk.len());
                    if seen <= MAX_RECORDED {
                        let offset = ms(self.started.elapsed());
                        match &mut events {
                            Some(reader) => reader.push(&chunk, offset),
                            None => whole.extend_from_slice(&chunk),
                        }
                    }
                    // A client that went away still gets its answer recorded: it was paid for.
                    if let Some(sender) = &mut client
                        && sender.send_data(chunk).await.is_err()
                    {
                        client = None;
                    }
                }
                Ok(None) => break,
                Err(why) => {
                    self.shared.problem(format!(
                        "not recorded: the answer to {} broke off: {why}",
                        self.asked
                    ));
                    if let Some(sender) = client {
                        sender.abort(std::io::Error::other(format!(
                            "the provider's answer broke off: {why}"
                        )));
                    }
                    return;
                }
            }
        }
        let end = ms(self.started.elapsed());
        let recorded = if let Some(why) = &self.refusal {
            Err(why.clone())
        } else if seen > MAX_RECORDED {
            Err(format!(
                "the answer is larger than {}",
                agent_test_core::util::text::size(MAX_RECORDED as u64)
            ))
        } else {
            self.store(events.map(|r| r.finish(end)), whole)
        };
        if let Err(why) = recorded {
            self.shared
                .problem(format!("not recorded: {}: {why}", self.asked));
        }
        // Only now does the client's body end.
        drop(client);
    }

    /// Writes the entry.
    fn store(
        &self,
        events: Option<Result<Vec<super::entry::Event>, String>>,
        body: Vec<u8>,
    ) -> Result<(), String> {
        let mut response = RecordedResponse {
            status: self.status,
            headers: self.stored_headers.clone(),
            latency_ms: self.latency_ms,
            body: None,
            text: None,
            events: None,
        };
        match events {
            Some(events) => {
                let mut events = events?;
                // A secret spread over the events first, while its pieces still spell it.
                super::stream_secrets::redact(&mut events, &self.redactor);
                for e in &mut events {
                    for field in [&mut e.event, &mut e.id, &mut e.text].into_iter().flatten() {
                        self.redactor.string(field);
                    }
                    if let Some(data) = &mut e.data {
                        self.redactor.value(data);
                    }
                }
                response.events = Some(events);
            }
            None if body.is_empty() => {}
            None => match serde_json::from_slice::<Value>(&body) {
                Ok(mut json) if is_json(&self.media) => {
                    self.redactor.value(&mut json);
                    response.body = Some(json);
                }
                _ => {
                    let mut text = String::from_utf8(body)
                        .map_err(|_| "the answer is neither JSON nor UTF-8 text".to_owned())?;
                    self.redactor.string(&mut text);
                    response.text = Some(text);
                }
            },
        }
        let entry = Entry {
            version: VERSION,
            request: self.request.clone(),
            response,
        };
        let mut text = entry.to_text()?;
        // Secrets were redacted field by field; this catches one in a key or split oddly.
        self.redactor.string(&mut text);
        write_whole(&entry_path(&self.shared.dir, &self.id), text.as_bytes())?;
        self.shared.used(&self.id);
        Ok(())
    }
}
