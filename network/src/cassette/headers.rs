//! Headers through a cassette: which are forwarded, which hold credentials (never stored, and
//! searched for and redacted everywhere else), and the few that are stored and replayed.

use std::collections::BTreeMap;

use hyper::header::{HeaderMap, HeaderName};

use crate::agent::wire::{Redactor, Secret};

/// Headers that carry credentials: their values are secrets of the exchange.
const CREDENTIALS: [&str; 8] = [
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "api-key",
    "x-goog-api-key",
    "ocp-apim-subscription-key",
    "x-auth-token",
    "cookie",
];

/// The request headers stored, for people reading an entry: a list of what is known to be
/// harmless, rather than a list of what is secret (a provider's new key header must not reach
/// a file because nobody listed it).
const STORED_REQUEST: [&str; 5] = [
    "content-type",
    "accept",
    "anthropic-version",
    "anthropic-beta",
    "openai-beta",
];

/// The response headers stored and replayed: what a client reads the body by. Rate limits,
/// request ids and dates change with every recording and would only make diffs.
const STORED_RESPONSE: [&str; 1] = ["content-type"];

/// Headers of one connection, not of the message (RFC 9110 §7.6.1), and those the proxy sets
/// itself: never forwarded either way. `accept-encoding` is dropped so the provider answers
/// uncompressed and the answer can be read and stored.
const NOT_FORWARDED: [&str; 11] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "host",
    "content-length",
    "accept-encoding",
    "content-encoding",
];

/// Whether a header goes on to the provider (or back to the client).
pub(crate) fn forwarded(name: &HeaderName) -> bool {
    !NOT_FORWARDED.contains(&name.as_str())
}

/// The secrets of an exchange: the configured ones, the credential headers' values and the
/// credential query parameters' values.
pub(crate) fn redactor(configured: &[Secret], headers: &HeaderMap, query: Vec<String>) -> Redactor {
    let mut secrets: Vec<Secret> = configured.to_vec();
    for name in CREDENTIALS {
        for value in headers.get_all(name) {
            if let Ok(v) = value.to_str() {
                secrets.push(Secret::new(v));
                // A cookie header holds several: each value on its own too.
                if name == "cookie" {
                    secrets.extend(
                        v.split(';')
                            .filter_map(|c| c.split_once('='))
                            .map(|(_, v)| Secret::new(v.trim())),
                    );
                }
            }
        }
    }
    secrets.extend(query.into_iter().map(Secret::new));
    Redactor::new(&secrets)
}

fn kept(headers: &HeaderMap, names: &[&str], redactor: &Redactor) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for name in names {
        if let Some(v) = headers.get(*name).and_then(|v| v.to_str().ok()) {
            let mut v = v.to_owned();
            redactor.string(&mut v);
            out.insert((*name).to_owned(), v);
        }
    }
    out
}

/// The request headers an entry stores.
pub(crate) fn stored_request(headers: &HeaderMap, redactor: &Redactor) -> BTreeMap<String, String> {
    kept(headers, &STORED_REQUEST, redactor)
}

/// The response headers an entry stores.
pub(crate) fn stored_response(
    headers: &HeaderMap,
    redactor: &Redactor,
) -> BTreeMap<String, String> {
    kept(headers, &STORED_RESPONSE, redactor)
}

/// The media type of a `content-type` value, lower case, without parameters.
pub(crate) fn media_type(content_type: Option<&str>) -> String {
    content_type
        .and_then(|c| c.split(';').next())
        .map(|c| c.trim().to_ascii_lowercase())
        .unwrap_or_default()
}

/// Whether a media type is JSON (`application/json`, `…+json`).
pub(crate) fn is_json(media_type: &str) -> bool {
    media_type == "application/json" || media_type.ends_with("+json")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    #[test]
    fn credentials_are_secrets_and_never_stored() {
        let mut h = HeaderMap::new();
        h.insert(
            "authorization",
            HeaderValue::from_static("Bearer sk-SENTINEL-1"),
        );
        h.insert("x-api-key", HeaderValue::from_static("sk-ant-SENTINEL-2"));
        h.insert(
            "cookie",
            HeaderValue::from_static("a=cookie-SENTINEL-3; b=x"),
        );
        h.insert("x-new-provider-key", HeaderValue::from_static("unknown"));
        h.insert("content-type", HeaderValue::from_static("application/json"));
        h.insert("anthropic-version", HeaderValue::from_static("2023-06-01"));
        let r = redactor(&[], &h, vec!["AIza-SENTINEL-4".into()]);
        let mut text =
            "sk-SENTINEL-1 sk-ant-SENTINEL-2 cookie-SENTINEL-3 AIza-SENTINEL-4".to_owned();
        r.string(&mut text);
        assert_eq!(text, "*** *** *** ***");
        let stored = stored_request(&h, &r);
        assert_eq!(
            stored.keys().collect::<Vec<_>>(),
            ["anthropic-version", "content-type"]
        );
    }
}
