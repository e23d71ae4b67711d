//! What the proxy answers: whole and streamed responses, and its own failures in the shape
//! the providers' SDKs read.

use bytes::Bytes;
use http_body_util::channel::Channel;
use hyper::body::Frame;

use crate::agent::cassette_entries::MISS_HEADER;

/// The status of a replay's miss: no provider sends it, so it is never taken for the
/// provider's own failure.
pub(crate) const MISS_STATUS: u16 = 599;

/// A response whose body is sent as it comes (a stream) or at once.
pub(crate) type Response = hyper::Response<Channel<Bytes, std::io::Error>>;

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
