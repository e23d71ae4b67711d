//! The proxy's server: each request read, put in canonical form and answered by the mode — from
//! its entry, or forwarded and recorded — or refused with an error a client can show.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::BodyExt;
use http_body_util::channel::Channel;
use hyper::body::Frame;

use super::canonical::{Canonical, without_credentials};
use super::difference::miss_message;
use super::entry::Entry;
use super::mode::Mode;
use super::running::{Miss, Shared};
use super::store::entry_path;
use super::{headers, record, replay};
use crate::agent::cassette_entries::MISS_HEADER;

/// The largest request read (images travel inline as base64).
const MAX_REQUEST: usize = 32 * 1024 * 1024;

/// The status of a replay's miss: no provider sends it, so it is never taken for the
/// provider's own failure.
pub(crate) const MISS_STATUS: u16 = 599;

/// A response whose body is sent as it comes (a stream) or at once.
pub(crate) type Response = hyper::Response<Channel<Bytes, std::io::Error>>;

/// Accepts connections until the runtime ends.
pub(crate) async fn serve(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let shared = Arc::clone(&shared);
                async move { Ok::<_, std::convert::Infallible>(handle(req, shared).await) }
            });
            // A connection that breaks is the client's affair, never the proxy's.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

/// A response with a whole body.
pub(crate) fn whole(status: u16, headers: &[(&str, &str)], body: impl Into<Bytes>) -> Response {
    let (mut tx, channel) = Channel::new(1);
    // One frame into an empty channel of one: it fits.
    let _ = tx.try_send(Frame::data(body.into()));
    streamed(status, headers, channel)
}

/// A response whose body is what `channel` is sent.
pub(crate) fn streamed(
    status: u16,
    headers: &[(&str, &str)],
    channel: Channel<Bytes, std::io::Error>,
) -> Response {
    let mut r = hyper::Response::new(channel);
    *r.status_mut() =
        hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    for (name, value) in headers {
        if let (Ok(n), Ok(v)) = (
            hyper::header::HeaderName::from_bytes(name.as_bytes()),
            hyper::header::HeaderValue::from_str(value),
        ) {
            r.headers_mut().append(n, v);
        }
    }
    r
}

/// An error in the shape both providers' SDKs read (`error.message`), which they do not retry.
pub(crate) fn failure(status: u16, message: &str, miss: bool) -> Response {
    let body = serde_json::json!({
        "type": "error",
        "error": {"type": if miss { "agent_test_cassette_miss" } else { "agent_test_cassette" }, "message": message},
    });
    let mut headers = vec![
        ("content-type", "application/json"),
        // The OpenAI and Anthropic SDKs retry 5xx answers unless told not to.
        ("x-should-retry", "false"),
    ];
    if miss {
        headers.push((MISS_HEADER, "1"));
    }
    whole(status, &headers, body.to_string())
}

async fn handle(req: hyper::Request<hyper::body::Incoming>, shared: Arc<Shared>) -> Response {
    let (parts, body) = req.into_parts();
    let body = match http_body_util::Limited::new(body, MAX_REQUEST)
        .collect()
        .await
    {
        Ok(b) => b.to_bytes(),
        Err(e) => {
            let mut r = failure(
                413,
                &format!(
                    "agent-test cassette: the request could not be read (at most {MAX_REQUEST} bytes): {e}"
                ),
                false,
            );
            // The rest of the body was not read: the connection cannot carry another request.
            r.headers_mut().insert(
                hyper::header::CONNECTION,
                hyper::header::HeaderValue::from_static("close"),
            );
            return r;
        }
    };
    let path_and_query = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    let (_, query_secrets) = without_credentials(&path_and_query);
    let redactor = headers::redactor(&shared.secrets, &parts.headers, query_secrets);
    let canonical = match Canonical::new(
        parts.method.as_str(),
        &path_and_query,
        &body,
        &shared.ignored,
        &redactor,
    ) {
        Ok(c) => c,
        Err(e) => return failure(400, &format!("agent-test cassette: {e}"), false),
    };
    let id = canonical.id();
    let path = entry_path(&shared.dir, &id);
    let found = match Entry::read(&path) {
        // Another request under this name (an edited file, a collision) is no recording of
        // this one.
        Ok(Some(entry)) if entry.request.canonical() != canonical => Err(format!(
            "the cassette entry {} holds another request than its name says (edited by hand?): record it again",
            path.display()
        )),
        Ok(found) => Ok(found),
        Err(why) => Err(format!(
            "the cassette entry {} is invalid: {why}",
            path.display()
        )),
    };
    match (shared.mode, found) {
        (Mode::Replay | Mode::Auto, Ok(Some(entry))) => {
            shared.used(&id);
            replay::answer(entry, &id, shared.recorded_timing).await
        }
        (Mode::Replay, Ok(None)) => {
            let (message, closest) = miss_message(&shared.dir, &canonical);
            shared.missed(Miss {
                request: format!("{} {}", canonical.method, canonical.path),
                closest,
                message: message.clone(),
            });
            failure(MISS_STATUS, &message, true)
        }
        (Mode::Replay, Err(why)) => {
            shared.missed(Miss {
                request: format!("{} {}", canonical.method, canonical.path),
                closest: None,
                message: why.clone(),
            });
            failure(MISS_STATUS, &why, true)
        }
        (Mode::Auto, Err(why)) => {
            shared.problem(format!("{why}: recorded again"));
            record::forward(&shared, parts, body, canonical, id, redactor).await
        }
        (Mode::Record | Mode::Auto, _) => {
            record::forward(&shared, parts, body, canonical, id, redactor).await
        }
    }
}
