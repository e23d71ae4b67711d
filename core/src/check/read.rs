//! Reading a [`Check`] from data without buffering it: serde's internally tagged enums copy
//! every check into an intermediate tree before reading its kind's fields (the largest cost of
//! `agent-test eval` past parsing, with 50,000 checks). A check whose `type` comes first — as
//! agent-test writes them and as people do — is read straight from the map; one whose `type`
//! comes later is gathered into a JSON object first, as before.

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, IntoDeserializer, MapAccess, Visitor};

use super::Check;

/// The `type` key of a check's data form.
const TAG: &str = "type";

impl<'de> serde::Deserialize<'de> for Check {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(CheckVisitor)
    }
}

struct CheckVisitor;

impl<'de> Visitor<'de> for CheckVisitor {
    type Value = Check;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a check: an object with its `type`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Check, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Err(de::Error::missing_field(TAG));
        };
        if first == TAG {
            let kind = map.next_value::<String>()?;
            return Check::read_kind(&kind, MapAccessDeserializer::new(map));
        }
        // `type` later: gather the object. A key given twice is an error, not the last one
        // (JSON text is parsed strictly already; another format's map may repeat a key).
        let mut fields = serde_json::Map::new();
        fields.insert(first, map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
            if fields.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            fields.insert(key, value);
        }
        let kind = match fields.remove(TAG) {
            Some(serde_json::Value::String(kind)) => kind,
            Some(other) => {
                return Err(de::Error::invalid_type(
                    unexpected(&other),
                    &"a check's type name",
                ));
            }
            None => return Err(de::Error::missing_field(TAG)),
        };
        Check::read_kind(&kind, fields.into_deserializer()).map_err(de::Error::custom)
    }
}

/// How serde names a JSON value in an "invalid type" error.
fn unexpected(v: &serde_json::Value) -> de::Unexpected<'_> {
    match v {
        serde_json::Value::Null => de::Unexpected::Unit,
        serde_json::Value::Bool(b) => de::Unexpected::Bool(*b),
        serde_json::Value::Number(_) => de::Unexpected::Other("a number"),
        serde_json::Value::String(s) => de::Unexpected::Str(s),
        serde_json::Value::Array(_) => de::Unexpected::Seq,
        serde_json::Value::Object(_) => de::Unexpected::Map,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Check;

    /// Wherever `type` stands, the same check; the errors name what is wrong.
    #[test]
    fn the_type_first_or_later_reads_the_same_check() {
        let first: Check = serde_json::from_value(
            json!({"type": "tool", "name": "search", "count": {"at_least": 2}}),
        )
        .unwrap();
        let later: Check = serde_json::from_value(
            json!({"name": "search", "count": {"at_least": 2}, "type": "tool"}),
        )
        .unwrap();
        assert_eq!(first, later);
        for sample in Check::samples() {
            if matches!(sample.check, Check::Custom(_)) {
                continue; // no data form
            }
            let data = serde_json::to_value(&sample.check).unwrap();
            let back: Check = serde_json::from_value(data.clone()).unwrap();
            assert_eq!(serde_json::to_value(back).unwrap(), data);
        }

        let err = |v| serde_json::from_value::<Check>(v).unwrap_err().to_string();
        assert!(
            err(json!({"type": "tooll"}))
                .starts_with("unknown variant `tooll`, expected one of `text`, `tool`")
        );
        assert!(err(json!({"name": "x", "type": "tooll"})).starts_with("unknown variant `tooll`"));
        assert!(
            err(json!({"type": "custom", "label": "x"})).starts_with("unknown variant `custom`")
        );
        // The kinds it expects are those with a data form.
        let expected = err(json!({"type": "custom"}));
        let listed = expected
            .split_once("expected one of")
            .map(|(_, l)| l)
            .unwrap();
        assert!(
            !listed.contains("custom") && listed.contains("`judge`"),
            "{expected}"
        );
        assert_eq!(err(json!({})), "missing field `type`");
        assert_eq!(err(json!({"name": "x"})), "missing field `type`");
        assert!(
            err(json!({"name": "x", "type": 3}))
                .starts_with("invalid type: a number, expected a check's type name")
        );
        assert!(
            err(json!({"type": "tool", "name": "x", "zz": 1})).starts_with("unknown field `zz`")
        );
        assert!(
            err(json!({"name": "x", "zz": 1, "type": "tool"})).starts_with("unknown field `zz`")
        );
        assert!(err(json!("tool")).starts_with("invalid type: string \"tool\", expected a check"));
    }

    /// A map that repeats a key (YAML and other formats may) is refused wherever `type` stands,
    /// never read as its last value.
    #[test]
    fn a_repeated_key_is_an_error() {
        use serde::Deserialize;
        use serde::de::value::{MapDeserializer, StrDeserializer};
        let read = |entries: Vec<(&'static str, &'static str)>| {
            let map = MapDeserializer::<_, serde_json::Error>::new(
                entries
                    .into_iter()
                    .map(|(k, v)| (StrDeserializer::<serde_json::Error>::new(k), v)),
            );
            Check::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                .map(|_| ())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            read(vec![("name", "a"), ("type", "tool"), ("name", "b")]),
            "duplicate field `name`"
        );
        assert_eq!(
            read(vec![("name", "a"), ("type", "tool"), ("type", "text")]),
            "duplicate field `type`"
        );
        assert_eq!(
            read(vec![("type", "tool"), ("name", "a"), ("name", "b")]),
            "duplicate field `name`"
        );
    }
}
