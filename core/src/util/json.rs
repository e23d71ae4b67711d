//! The one reader of JSON text for every input (scenario files, recordings, traces, the seed
//! formats, the command line's JSON arguments): `serde_json`'s parser, with two differences
//! that keep an input from being silently reinterpreted.
//!
//! - A key repeated in an object is an error naming the path and both places (serde_json
//!   keeps the last one, so a Mibo assertion with two `condition`s would flip its meaning).
//! - A leading UTF-8 byte order mark, as some Windows editors write, is skipped.
//!
//! Everything else is serde_json's: the grammar, numbers, and its nesting limit of 128.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Text without its leading UTF-8 byte order mark, if it has one (only one is removed).
#[doc(hidden)]
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A place in a text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct Place {
    #[doc(hidden)]
    pub line: usize,
    #[doc(hidden)]
    pub column: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why JSON text could not be read.
#[derive(Debug)]
#[doc(hidden)]
pub enum JsonTextError {
    /// Not JSON (or nested deeper than serde_json's limit).
    Syntax(serde_json::Error),
    /// A key given twice in one object.
    Duplicate(Duplicate),
}

impl fmt::Display for JsonTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonTextError::Syntax(e) => write!(f, "{e}"),
            JsonTextError::Duplicate(d) if d.path.is_empty() => f.write_str(&d.message(0)),
            JsonTextError::Duplicate(d) => write!(f, "at {}: {}", d.path, d.message(0)),
        }
    }
}

/// A key given twice in one object.
#[derive(Clone, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct Duplicate {
    /// The path of the key (`assertions.procedural[0].condition`).
    #[doc(hidden)]
    pub path: String,
    /// The key.
    #[doc(hidden)]
    pub key: String,
    /// Where it is first given.
    #[doc(hidden)]
    pub first: Place,
    /// Where it is given again.
    #[doc(hidden)]
    pub again: Place,
}

impl Duplicate {
    /// The message, with the places' lines moved down by `lines` (for a line of a file).
    #[doc(hidden)]
    pub fn message(&self, lines: usize) -> String {
        let down = |p: Place| Place {
            line: p.line + lines,
            ..p
        };
        format!(
            "duplicate key `{}`: first at {}, again at {}; a key may appear only once in an object",
            self.key,
            down(self.first),
            down(self.again)
        )
    }
}

/// Reads an externally tagged enum (`{"exactly": 1}`, `"conversation"`) with `inner` (its
/// derived reader), refusing an object with more than its one key: serde would say "expected
/// map with a single key" without naming the key, this says "unknown field `k`" so that the
/// loader can show where it is. `variants` are the enum's keys.
#[doc(hidden)]
pub fn one_key<'de, D, T>(
    d: D,
    variants: &[&str],
    inner: impl FnOnce(Value) -> Result<T, serde_json::Error>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let v = <Value as serde::Deserialize>::deserialize(d)?;
    if let Value::Object(o) = &v
        && o.len() > 1
    {
        let names = variants
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(match o.keys().find(|k| !variants.contains(&k.as_str())) {
            Some(k) => {
                de::Error::custom(format_args!("unknown field `{k}`, expected one of {names}"))
            }
            None => de::Error::custom(format_args!(
                "expected only one of {names}, got {}",
                o.keys()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )),
        });
    }
    inner(v).map_err(de::Error::custom)
}

/// `Serialize` and `Deserialize` for an externally tagged enum derived with
/// `#[serde(remote = "Self")]`, read with [`one_key`].
macro_rules! one_key_enum {
    ($t:ty, [$($variant:literal),* $(,)?]) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                <$t>::serialize(self, s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::util::json::one_key(d, &[$($variant),*], |v| <$t>::deserialize(v))
            }
        }
    };
}
pub(crate) use one_key_enum;

/// What the visitor says when it meets a repeated key; the place is found afterwards.
const DUPLICATE: &str = "\u{0}duplicate key";

/// Parses JSON text (a leading byte order mark skipped), refusing a key repeated in an object.
#[doc(hidden)]
pub fn parse(text: &str) -> Result<Value, JsonTextError> {
    parse_with(text, true)
}

/// [`parse`] without serde_json's nesting limit, for a caller that bounds the depth itself
/// (recordings hold an agent's JSON a few levels down, so they may nest deeper).
#[doc(hidden)]
pub fn parse_unbounded(text: &str) -> Result<Value, JsonTextError> {
    parse_with(text, false)
}

fn parse_with(text: &str, recursion_limit: bool) -> Result<Value, JsonTextError> {
    let text = strip_bom(text);
    let mut de = serde_json::Deserializer::from_str(text);
    if !recursion_limit {
        de.disable_recursion_limit();
    }
    let parsed = StrictValue
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    parsed.map_err(|e| {
        if e.is_data() && e.to_string().starts_with(DUPLICATE) {
            match find_duplicate(text) {
                Some(d) => JsonTextError::Duplicate(d),
                None => JsonTextError::Syntax(e),
            }
        } else {
            JsonTextError::Syntax(e)
        }
    })
}

/// Builds a [`Value`] like serde_json's own, but fails on a repeated key.
struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// The scalar methods of a visitor building a [`Value`], as serde_json's own.
macro_rules! scalars {
    () => {
        fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
            Ok(Value::Bool(b))
        }

        fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
            Ok(Value::Number(n.into()))
        }

        fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
            Ok(Value::Number(n.into()))
        }

        fn visit_i128<E: de::Error>(self, n: i128) -> Result<Value, E> {
            use serde::Deserialize;
            serde_json::Number::deserialize(de::value::I128Deserializer::<E>::new(n))
                .map(Value::Number)
        }

        fn visit_u128<E: de::Error>(self, n: u128) -> Result<Value, E> {
            use serde::Deserialize;
            serde_json::Number::deserialize(de::value::U128Deserializer::<E>::new(n))
                .map(Value::Number)
        }

        fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
            Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
        }

        fn visit_str<E>(self, s: &str) -> Result<Value, E> {
            Ok(Value::String(s.to_owned()))
        }

        fn visit_string<E>(self, s: String) -> Result<Value, E> {
            Ok(Value::String(s))
        }

        fn visit_none<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }

        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    };
}

impl<'de> Visitor<'de> for StrictValue {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    scalars!();

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element_seed(StrictValue)? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match object.entry(key) {
                serde_json::map::Entry::Vacant(slot) => {
                    slot.insert(map.next_value_seed(StrictValue)?);
                }
                serde_json::map::Entry::Occupied(_) => {
                    return Err(de::Error::custom(DUPLICATE));
                }
            }
        }
        Ok(Value::Object(object))
    }
}

/// Parses YAML text into the JSON model (a leading byte order mark skipped), refusing a key
/// repeated in a mapping: the error is the duplicate, with its path and both places.
#[cfg(feature = "yaml")]
#[doc(hidden)]
pub fn parse_yaml(
    text: &str,
    options: serde_saphyr::Options,
) -> Result<Value, Result<Duplicate, serde_saphyr::Error>> {
    let mut options = options;
    // Repeated keys reach the visitor, which knows the path and both places.
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
    let found = std::cell::RefCell::new(None);
    let parsed =
        serde_saphyr::with_deserializer_from_str_with_options(strip_bom(text), options, |de| {
            YamlValue {
                path: String::new(),
                found: &found,
            }
            .deserialize(de)
        });
    parsed.map_err(|e| found.into_inner().ok_or(e))
}

/// Builds a [`Value`] from YAML, noting the first repeated key (with the path of each value).
#[cfg(feature = "yaml")]
struct YamlValue<'a> {
    path: String,
    found: &'a std::cell::RefCell<Option<Duplicate>>,
}

#[cfg(feature = "yaml")]
impl<'de> DeserializeSeed<'de> for YamlValue<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

#[cfg(feature = "yaml")]
impl<'de> Visitor<'de> for YamlValue<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    scalars!();

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let item = YamlValue {
                path: format!("{}[{}]", self.path, items.len()),
                found: self.found,
            };
            match seq.next_element_seed(item)? {
                Some(v) => items.push(v),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        let mut places: std::collections::HashMap<String, Place> = std::collections::HashMap::new();
        while let Some(key) = map.next_key::<serde_saphyr::Spanned<String>>()? {
            let here = Place {
                line: usize::try_from(key.referenced.line()).unwrap_or(usize::MAX),
                column: usize::try_from(key.referenced.column()).unwrap_or(usize::MAX),
            };
            let key = key.value;
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if let Some(first) = places.get(&key) {
                *self.found.borrow_mut() = Some(Duplicate {
                    path,
                    key,
                    first: *first,
                    again: here,
                });
                return Err(de::Error::custom("duplicate key"));
            }
            let value = map.next_value_seed(YamlValue {
                path,
                found: self.found,
            })?;
            places.insert(key.clone(), here);
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// The first key repeated in an object of `text`, with its path and both places. `text` is
/// JSON up to that key (the parser read that far), so this scan need not check the grammar.
fn find_duplicate(text: &str) -> Option<Duplicate> {
    /// An open object (its keys and where each was given, the current key) or array.
    enum Frame {
        Object {
            keys: Vec<(String, usize)>,
            current: Option<String>,
        },
        Array(usize),
    }
    let path_of = |stack: &[Frame], key: &str| {
        let mut path = String::new();
        for frame in stack {
            match frame {
                Frame::Object {
                    current: Some(k), ..
                } => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                }
                Frame::Object { current: None, .. } => {}
                Frame::Array(i) => path.push_str(&format!("[{i}]")),
            }
        }
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
        path
    };
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    // Whether the next string of the innermost object is a key.
    let mut want_key = false;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'{' => {
                stack.push(Frame::Object {
                    keys: Vec::new(),
                    current: None,
                });
                want_key = true;
            }
            b'[' => {
                stack.push(Frame::Array(0));
                want_key = false;
            }
            b'}' | b']' => {
                stack.pop();
                want_key = false;
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object { .. }) => want_key = true,
                None => {}
            },
            b'"' => {
                let start = i;
                i += 1;
                while let Some(&c) = bytes.get(i)
                    && c != b'"'
                {
                    i += if c == b'\\' { 2 } else { 1 };
                }
                let raw = text.get(start..=i)?;
                if want_key {
                    want_key = false;
                    let key: String = serde_json::from_str(raw).ok()?;
                    let Some((Frame::Object { keys, .. }, outer)) = stack.split_last() else {
                        return None;
                    };
                    if let Some((_, first)) = keys.iter().find(|(k, _)| *k == key) {
                        let first = *first;
                        let path = path_of(outer, &key);
                        return Some(Duplicate {
                            path,
                            key,
                            first: place(text, first),
                            again: place(text, start),
                        });
                    }
                    if let Some(Frame::Object { keys, current }) = stack.last_mut() {
                        keys.push((key.clone(), start));
                        *current = Some(key);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The line and column of byte `offset` of `text`.
fn place(text: &str, offset: usize) -> Place {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    Place {
        line: before.matches('\n').count() + 1,
        column: before[line_start..].chars().count() + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duplicate(text: &str) -> Duplicate {
        match parse(text) {
            Err(JsonTextError::Duplicate(d)) => d,
            other => panic!("expected a duplicate, got {other:?}"),
        }
    }

    #[test]
    fn a_repeated_key_is_found_with_its_path_and_both_places() {
        let d = duplicate("{\"a\": [1, {\"b\": {\"c\": 1,\n  \"c\": 2}}]}");
        assert_eq!(d.path, "a[1].b.c");
        assert_eq!(d.key, "c");
        assert_eq!(
            d.first,
            Place {
                line: 1,
                column: 18
            }
        );
        assert_eq!(d.again, Place { line: 2, column: 3 });
        assert_eq!(
            d.message(0),
            "duplicate key `c`: first at line 1, column 18, again at line 2, column 3; a key \
             may appear only once in an object"
        );
    }

    #[test]
    fn keys_are_compared_after_unescaping() {
        let d = duplicate(r#"{"x": "}{\"", "items": [], "a\u0062": 1, "ab": 2}"#);
        assert_eq!(d.path, "ab");
        assert_eq!(d.first.column, 28);
        assert_eq!(d.again.column, 42);
    }

    #[test]
    fn sibling_objects_may_share_keys() {
        let v = parse(r#"[{"a": 1}, {"a": 2}, {"a": {"a": 3}}]"#).expect("no duplicate");
        assert_eq!(v, serde_json::json!([{"a": 1}, {"a": 2}, {"a": {"a": 3}}]));
    }

    #[test]
    fn values_are_serde_jsons() {
        let text = r#"{"n": [1, -2, 1.5, 1e400, 18446744073709551615, 1.0], "s": "é\n", "z": null, "t": true}"#;
        let ours = parse(text);
        assert!(
            matches!(ours, Err(JsonTextError::Syntax(_))),
            "1e400 is out of range"
        );
        let text = r#"{"n": [1, -2, 1.5, 18446744073709551615, 1.0, 123456789012345678901], "s": "é\n", "z": null, "t": true}"#;
        let expected: Value = serde_json::from_str(text).unwrap();
        assert_eq!(parse(text).unwrap(), expected);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_once() {
        assert_eq!(
            parse("\u{feff}{\"a\": 1}").unwrap(),
            serde_json::json!({"a": 1})
        );
        assert!(parse("\u{feff}\u{feff}{}").is_err());
    }

    #[test]
    fn the_nesting_limit_is_serde_jsons() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        for n in [1, 100, 126, 127, 128, 129, 130, 5000] {
            assert_eq!(
                parse(&deep(n)).is_ok(),
                serde_json::from_str::<Value>(&deep(n)).is_ok(),
                "{n}"
            );
        }
        match parse(&deep(5000)) {
            Err(JsonTextError::Syntax(e)) => {
                assert!(e.to_string().contains("recursion limit"), "{e}")
            }
            other => panic!("{other:?}"),
        }
    }
}
