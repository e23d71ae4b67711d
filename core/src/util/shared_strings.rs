//! Large strings written once in a JSON document: a reply's text is often also its body's
//! content and its tool call's result, and a failed check keeps what it saw — four copies of a
//! 6 MiB file made a 32 MB report. A repeat of a string of [`MIN_SHARED`] bytes or more is
//! written as `{"agent_test_same_as": "<JSON pointer to the first>"}`, and every reader of
//! agent-test's JSON puts the string back before reading the document.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::{Map, Value};

/// The key of an object standing for a repeated string.
pub const SAME_AS: &str = "agent_test_same_as";

/// Strings shorter than this are written every time (sharing them saves little).
pub const MIN_SHARED: usize = 64 * 1024;

/// Replaces every repeat of a string of [`MIN_SHARED`] bytes or more with a reference to its
/// first occurrence (in document order); [`expand_shared`] undoes it.
///
/// ```
/// use serde_json::json;
/// let big = "x".repeat(70_000);
/// let mut doc = json!({"result": big.clone(), "text": big});
/// agent_test::report::share_repeats(&mut doc);
/// assert_eq!(doc["text"], json!({"agent_test_same_as": "/result"}));
/// ```
pub fn share_repeats(doc: &mut Value) {
    let mut big = Vec::new();
    collect(doc, &mut String::new(), &mut big);
    if big.len() < 2 {
        return;
    }
    // Grouped by (length, hash); a group's members are compared in full before sharing.
    let mut first: HashMap<(usize, u64), Vec<String>> = HashMap::new();
    let mut repeats: Vec<(String, String)> = Vec::new();
    for (pointer, len, hash) in big {
        let seen = first.entry((len, hash)).or_default();
        let same = seen
            .iter()
            .find(|p| doc.pointer(p).is_some() && doc.pointer(p) == doc.pointer(&pointer))
            .cloned();
        match same {
            Some(original) => repeats.push((pointer, original)),
            None => seen.push(pointer),
        }
    }
    for (pointer, original) in repeats {
        if let Some(slot) = doc.pointer_mut(&pointer) {
            *slot = Value::Object(Map::from_iter([(
                SAME_AS.to_owned(),
                Value::String(original),
            )]));
        }
    }
}

/// The large strings of `v`: (JSON pointer, length, hash), in document order.
fn collect(v: &Value, at: &mut String, out: &mut Vec<(String, usize, u64)>) {
    match v {
        Value::String(s) if s.len() >= MIN_SHARED => {
            let mut h = DefaultHasher::new();
            s.hash(&mut h);
            out.push((at.clone(), s.len(), h.finish()));
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                collect(item, at, out);
                at.truncate(len);
            }
        }
        Value::Object(o) => {
            for (k, item) in o {
                let len = at.len();
                at.push('/');
                at.push_str(&k.replace('~', "~0").replace('/', "~1"));
                collect(item, at, out);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

/// Whether JSON text may hold shared strings (a quick test before the full read).
#[doc(hidden)]
pub fn may_hold_shared(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), SAME_AS.as_bytes()).is_some()
}

/// Puts every shared string back: an object `{"agent_test_same_as": pointer}` becomes the string
/// the pointer names. A pointer to nothing, or to something that is not a string, is an error
/// naming where the reference is.
///
/// ```
/// use serde_json::json;
/// let big = "x".repeat(70_000);
/// let mut doc = json!({"text": big, "body": {"content": {"agent_test_same_as": "/text"}}});
/// agent_test::report::expand_shared(&mut doc).unwrap();
/// assert_eq!(doc["body"]["content"], doc["text"]);
///
/// let mut broken = json!({"a": {"agent_test_same_as": "/nowhere"}});
/// let err = agent_test::report::expand_shared(&mut broken).unwrap_err();
/// assert_eq!((err.at.as_str(), err.target.as_str()), ("/a", "/nowhere"));
/// assert_eq!(err.to_string(),
///            "at /a: a shared string refers to /nowhere, which is not a string of the document");
/// ```
pub fn expand_shared(doc: &mut Value) -> Result<(), SharedStringError> {
    let mut refs = Vec::new();
    find_refs(doc, &mut String::new(), &mut refs);
    for (at, target) in refs {
        let Some(Value::String(s)) = doc.pointer(&target) else {
            return Err(SharedStringError { at, target });
        };
        let s = s.clone();
        if let Some(slot) = doc.pointer_mut(&at) {
            *slot = Value::String(s);
        }
    }
    Ok(())
}

/// A shared string whose reference names no string of the document: where it is, and what
/// it names (both JSON pointers).
///
/// See [`expand_shared`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedStringError {
    /// Where the reference is.
    pub at: String,
    /// The pointer it names.
    pub target: String,
}

impl std::fmt::Display for SharedStringError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "at {}: a shared string refers to {}, which is not a string of the document",
            self.at, self.target
        )
    }
}

impl std::error::Error for SharedStringError {}

/// The references of `v`: (where, the pointer it names).
fn find_refs(v: &Value, at: &mut String, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(o) => {
            if o.len() == 1
                && let Some(Value::String(target)) = o.get(SAME_AS)
            {
                out.push((at.clone(), target.clone()));
                return;
            }
            for (k, item) in o {
                let len = at.len();
                at.push('/');
                at.push_str(&k.replace('~', "~0").replace('/', "~1"));
                find_refs(item, at, out);
                at.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                find_refs(item, at, out);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repeats_are_written_once_and_read_back() {
        let big = "é/~".repeat(30_000);
        let other = "y".repeat(MIN_SHARED);
        let original = json!({
            "turns": [{"reply": {"text": big, "body": {"content": [{"text": big}]},
                                 "calls": [{"result": big}]}}],
            "a/b~c": {"x": other},
            "verdicts": [{"actual": other}, {"actual": "short"}, {"actual": "short"}],
        });
        let mut doc = original.clone();
        share_repeats(&mut doc);
        // The first in document order (keys sorted: `body` before `calls` and `text`) is kept.
        let first = "/turns/0/reply/body/content/0/text";
        assert!(doc.pointer(first).is_some_and(Value::is_string));
        assert_eq!(doc["turns"][0]["reply"]["text"], json!({SAME_AS: first}));
        assert_eq!(
            doc["turns"][0]["reply"]["calls"][0]["result"][SAME_AS],
            first
        );
        // Keys are escaped as JSON pointers say (`~1` for `/`, `~0` for `~`).
        assert_eq!(doc["verdicts"][0]["actual"][SAME_AS], "/a~1b~0c/x");
        assert_eq!(
            doc["verdicts"][1]["actual"], "short",
            "short strings are kept"
        );
        let written = serde_json::to_string(&doc).unwrap();
        assert!(written.len() < 3 * big.len(), "{} bytes", written.len());
        assert!(may_hold_shared(&written));
        let mut read: Value = serde_json::from_str(&written).unwrap();
        expand_shared(&mut read).unwrap();
        assert!(read == original, "not read back as written");
    }

    #[test]
    fn a_reference_to_something_else_is_an_error() {
        let mut doc = json!({"n": 3, "r": [{SAME_AS: "/n"}]});
        assert_eq!(
            expand_shared(&mut doc).unwrap_err().to_string(),
            "at /r/0: a shared string refers to /n, which is not a string of the document"
        );
    }
}
