//! JSON text read straight into typed values, in one pass and without a tree of [`Value`]s in
//! between: the fast path of the loaders.
//!
//! Reading a file the strict way — parse into a [`Value`] that refuses repeated keys, then
//! deserialise that — costs a tree of values as large as several times the file, built and
//! thrown away (a 7 MB file of 10,000 scenarios took 0.3 s and 160 MB). Here the text is only
//! scanned for repeated keys (nothing is built) and then deserialised directly. When either
//! step fails, the caller reads the text the strict way, which names the problem exactly as
//! before: a fast read of a good file gives the same value, and a bad file the same error.
//!
//! [`Value`]: serde_json::Value

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};

use super::json::strip_bom;

/// `text` read into `T` when nothing is wrong with it: no repeated key, valid JSON, the shape
/// of `T`. `None` says only that something is wrong: read it the strict way to know what.
/// `unbounded` lifts serde_json's nesting limit of 128 for a caller that bounds the depth
/// itself (recordings).
#[doc(hidden)]
pub fn read<T: DeserializeOwned>(text: &str, unbounded: bool) -> Option<T> {
    let text = strip_bom(text);
    let deserializer = || {
        let mut de = serde_json::Deserializer::from_str(text);
        if unbounded {
            de.disable_recursion_limit();
        }
        de
    };
    // The shape first: a wrong guess of `T` fails at once, usually at the first key, where the
    // scan for repeated keys would read the whole text before failing.
    let mut de = deserializer();
    let value = T::deserialize(&mut de).ok()?;
    de.end().ok()?;
    let mut de = deserializer();
    NoRepeatedKey.deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(value)
}

/// A JSON array at least this long is read on several threads by [`read_array`].
const PARALLEL_FROM: usize = 1 << 20;

/// A top-level JSON array read into `Vec<T>` as [`read`] would, its elements split between the
/// cores when the text is large: a file of 10,000 scenarios is one array, and reading it was
/// the one step of `agent-test eval` that ran on a single thread while the others waited.
/// `None` when anything is wrong (the caller reads the text the strict way, which names it).
#[doc(hidden)]
pub fn read_array<T: DeserializeOwned + Send>(text: &str, unbounded: bool) -> Option<Vec<T>> {
    let text = strip_bom(text);
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    if text.len() < PARALLEL_FROM || threads < 2 {
        return read(text, unbounded);
    }
    let elements = array_elements(text)?;
    let per_thread = elements.len().div_ceil(threads).max(1);
    let parts: Vec<Option<Vec<T>>> = std::thread::scope(|s| {
        let workers: Vec<_> = elements
            .chunks(per_thread)
            .map(|chunk| {
                s.spawn(move || {
                    let mut part = Vec::with_capacity(chunk.len());
                    for element in chunk {
                        part.push(read::<T>(element, unbounded)?);
                    }
                    Some(part)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().ok().flatten())
            .collect()
    });
    let mut all = Vec::with_capacity(elements.len());
    for part in parts {
        all.extend(part?);
    }
    Some(all)
}

/// Nesting at which [`array_elements`] leaves the text to a whole read.
const NESTED_DEEP: usize = 64;

/// The texts of a top-level array's elements (`[a, b]` → `a`, `b`), found by a scan that only
/// follows strings and brackets; each element is then parsed (and so validated) on its own.
/// `None` when the text is not one array as far as the scan can tell.
fn array_elements(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes.get(start) != Some(&b'[') {
        return None;
    }
    let mut elements = Vec::new();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut element_start = start + 1;
    let mut end = None;
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                // Near serde_json's nesting limit the whole read decides: it counts the array's
                // own level, which an element read alone would not.
                if depth >= NESTED_DEEP {
                    return None;
                }
            }
            b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    elements.push(text.get(element_start..i)?);
                    end = Some(i);
                    break;
                }
            }
            b',' if depth == 1 => {
                elements.push(text.get(element_start..i)?);
                element_start = i + 1;
            }
            _ => {}
        }
    }
    let end = end?;
    // Nothing but whitespace after the array; `[]` has no element, `[1,]` an empty one.
    if !text.get(end + 1..)?.trim().is_empty() {
        return None;
    }
    if elements.len() == 1 && elements.first()?.trim().is_empty() {
        elements.clear();
    }
    if elements.iter().any(|e| e.trim().is_empty()) {
        return None;
    }
    Some(elements)
}

/// Walks a JSON value, building nothing, and fails at the first key repeated in an object.
struct NoRepeatedKey;

impl<'de> DeserializeSeed<'de> for NoRepeatedKey {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// Objects with more keys than this check them in a set rather than by a scan.
const SCAN_UP_TO: usize = 16;

impl<'de> Visitor<'de> for NoRepeatedKey {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(NoRepeatedKey)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys: Vec<Cow<'de, str>> = Vec::new();
        let mut set: HashSet<Cow<'de, str>> = HashSet::new();
        while let Some(key) = map.next_key_seed(Key)? {
            let repeated = if keys.len() < SCAN_UP_TO {
                let seen = keys.contains(&key);
                keys.push(key);
                seen
            } else {
                if set.is_empty() {
                    set.extend(keys.iter().cloned());
                }
                !set.insert(key)
            };
            if repeated {
                return Err(de::Error::custom("repeated key"));
            }
            map.next_value_seed(NoRepeatedKey)?;
        }
        Ok(())
    }
}

/// An object's key, borrowed from the text unless it has escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn reads_good_text_as_serde_json_does() {
        let text = "\u{feff}{\"a\": [1, {\"b\": \"x\\\"y\"}], \"c\": null}";
        let v: Value = read(text, false).unwrap();
        assert_eq!(v, serde_json::json!({"a": [1, {"b": "x\"y"}], "c": null}));
    }

    #[test]
    fn an_array_read_in_parts_is_the_array_read_whole() {
        let one = r#"{"a": [1, {"b": "x\"],{y"}], "c": "\\"}"#;
        let text = format!("\u{feff} [{}] \n", vec![one; 40_000].join(",\n"));
        assert!(text.len() > PARALLEL_FROM);
        let parts: Vec<Value> = read_array(&text, false).unwrap();
        let whole: Vec<Value> = read(&text, false).unwrap();
        assert_eq!(parts.len(), 40_000);
        assert_eq!(parts, whole);
        // Whatever the whole read refuses, the read in parts refuses too.
        for bad in [
            format!("[{}] x", vec![one; 40_000].join(",")),
            format!("[{},]", vec![one; 40_000].join(",")),
            format!("[{}", vec![one; 40_000].join(",")),
            format!("[{}, {{\"a\": 1, \"a\": 2}}]", vec![one; 40_000].join(",")),
            format!("{{\"k\": [{}]}}", vec![one; 40_000].join(",")),
        ] {
            assert!(
                read_array::<Value>(&bad, false).is_none(),
                "{}",
                &bad[bad.len() - 30..]
            );
        }
        assert_eq!(array_elements("[]"), Some(vec![]));
        assert_eq!(
            array_elements(" [1, [2, 3], \"]\"] "),
            Some(vec!["1", " [2, 3]", " \"]\""])
        );
        assert_eq!(array_elements("[1,,2]"), None);
        let deep = format!("[{}{}]", "[".repeat(70), "]".repeat(70));
        assert_eq!(array_elements(&deep), None);
        assert_eq!(array_elements("]"), None);
    }

    #[test]
    fn refuses_what_the_strict_reader_names() {
        // A repeated key, also when one of them is escaped, and in a large object.
        assert!(read::<Value>(r#"{"a": 1, "a": 2}"#, false).is_none());
        assert!(read::<Value>(r#"{"a": 1, "\u0061": 2}"#, false).is_none());
        let many: String = (0..40).map(|i| format!("\"k{i}\": {i}, ")).collect();
        assert!(read::<Value>(&format!("{{{many}\"k3\": 0}}"), false).is_none());
        assert!(read::<Value>(&format!("{{{many}\"k40\": 0}}"), false).is_some());
        // Broken text, trailing text, the wrong shape.
        assert!(read::<Value>(r#"{"a": "#, false).is_none());
        assert!(read::<Value>("{} {}", false).is_none());
        assert!(read::<Vec<u8>>(r#"{"a": 1}"#, false).is_none());
        // Nesting beyond serde_json's limit, unless the caller bounds it.
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(read::<Value>(&deep, false).is_none());
        assert!(read::<Value>(&deep, true).is_some());
    }
}
