//! The proxy's server: each request read, put in canonical form and answered by the mode — from
//! its entry, or forwarded and recorded — or refused with an error a client can show.

use std::sync::Arc;

use http_body_util::BodyExt;

use super::canonical::{Canonical, without_credentials};
use super::difference::miss_message;
use super::entry::Entry;
use super::mode::Mode;
use super::response::{MISS_STATUS, Response, failure};
use super::shared::{Miss, Shared};
use super::store::entry_path;
use super::{headers, record, replay};

/// The largest request read (images travel inline as base64).
const MAX_REQUEST: usize = 32 * 1024 * 1024;

/// Accepts connections until the runtime ends.
pub(crate) async fn serve(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        // Small writes go out at once: without it Nagle's algorithm holds an answer's last
        // segment until the client acknowledges the previous one, and a peer that delays its
        // acknowledgements (most do, by up to 40 ms) waits that long for every answer.
        let _ = stream.set_nodelay(true);
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
    let base = canonical.id();
    // The k-th ask of a request is answered by its k-th sample (see `samples`).
    let ask = shared.ask(&base);
    // Recording stores each ask as its own sample; a replay hands them out (a request recorded
    // once answers every ask).
    let (id, beyond) = match shared.mode {
        Mode::Record => (super::samples::sample_id(&base, ask), None),
        Mode::Replay | Mode::Auto => super::samples::pick(&shared.dir, &base, ask),
    };
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
        (Mode::Replay, Ok(None)) if beyond.is_some() => {
            let message = beyond.unwrap_or_default();
            shared.missed(Miss {
                request: format!("{} {}", canonical.method, canonical.path),
                closest: Some(base),
                message: message.clone(),
            });
            failure(MISS_STATUS, &message, true)
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
