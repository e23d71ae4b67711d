//! Dot paths into JSON values: `address.city`, `items.0.sku`, `items[0].sku`.

use serde_json::Value;

/// A dot path, split once when the check is built.
///
/// Segments select object keys, or array elements when numeric. A key that itself contains
/// dots is found too (`"a.b"` in `{"a.b": 1}`): when a segment does not lead to a value, the
/// next segments are joined to it and tried as one key.
///
/// ```
/// use agent_test::check::FieldPath;
/// use serde_json::json;
/// let v = json!({"items": [{"sku": "A-1"}], "address": {"city": "Lisbon"}, "a.b": 2});
/// assert_eq!(FieldPath::new("items.0.sku").get(&v), Some(&json!("A-1")));
/// assert_eq!(FieldPath::new("items[0].sku").get(&v), Some(&json!("A-1")));
/// assert_eq!(FieldPath::new("address.city").get(&v), Some(&json!("Lisbon")));
/// assert_eq!(FieldPath::new("a.b").get(&v), Some(&json!(2)));
/// assert_eq!(FieldPath::new("address.zip").get(&v), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldPath {
    source: String,
    segments: Vec<String>,
}

impl FieldPath {
    /// Splits `path` (an empty path selects the whole value).
    ///
    /// See the type's example.
    pub fn new(path: impl Into<String>) -> Self {
        let source = path.into();
        let segments = if source.is_empty() {
            Vec::new()
        } else {
            source
                .replace('[', ".")
                .replace(']', "")
                .split('.')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        };
        FieldPath { source, segments }
    }

    /// A path of one key, taken literally (dots included).
    ///
    /// ```
    /// # use agent_test::check::FieldPath;
    /// let v = serde_json::json!({"a.b": 1, "a": {"b": 2}});
    /// assert_eq!(FieldPath::key("a.b").get(&v), Some(&serde_json::json!(1)));
    /// ```
    pub fn key(name: impl Into<String>) -> Self {
        let name = name.into();
        FieldPath {
            segments: vec![name.clone()],
            source: name,
        }
    }

    /// The path as written.
    ///
    /// ```
    /// # use agent_test::check::FieldPath;
    /// assert_eq!(FieldPath::new("a.b").as_str(), "a.b");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The segments (`["address", "city"]`).
    #[doc(hidden)]
    pub fn segments(&self) -> &[String] {
        &self.segments
    }

    /// A path of these segments.
    #[doc(hidden)]
    pub fn from_segments(segments: &[String]) -> Self {
        FieldPath {
            source: segments.join("."),
            segments: segments.to_vec(),
        }
    }

    /// Whether this is one key taken literally ([`FieldPath::key`]) that reads differently as
    /// a path (`a.b`, `.`, `items[0]`): what the JSON form must mark to reload it.
    #[doc(hidden)]
    pub fn is_literal_key(&self) -> bool {
        FieldPath::new(self.source.as_str()).segments != self.segments
    }

    /// The first segment (the top-level key), if any.
    #[doc(hidden)]
    pub fn head(&self) -> Option<&str> {
        self.segments.first().map(String::as_str)
    }

    /// The value at the path.
    ///
    /// See the type's example.
    pub fn get<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        get(value, &self.segments)
    }
}

fn get<'v>(value: &'v Value, segments: &[String]) -> Option<&'v Value> {
    let Some((first, rest)) = segments.split_first() else {
        return Some(value);
    };
    match value {
        Value::Object(map) => {
            if let Some(found) = map.get(first).and_then(|v| get(v, rest)) {
                return Some(found);
            }
            // A key with dots in it: join more segments (rare, so only allocate here), one at a
            // time and no longer than the longest key, so that a long path costs linear time.
            let longest = map
                .keys()
                .filter(|k| k.contains('.'))
                .map(String::len)
                .max()?;
            let mut joined = first.clone();
            let mut remaining = rest;
            while let Some((segment, after)) = remaining.split_first() {
                joined.push('.');
                joined.push_str(segment);
                if joined.len() > longest {
                    return None;
                }
                if let Some(found) = map.get(&joined).and_then(|v| get(v, after)) {
                    return Some(found);
                }
                remaining = after;
            }
            None
        }
        Value::Array(items) => first
            .parse::<usize>()
            .ok()
            .and_then(|i| items.get(i))
            .and_then(|v| get(v, rest)),
        _ => None,
    }
}
