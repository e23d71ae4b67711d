//! JSON equality with numbers compared by value, and the options of exact matching.

use serde_json::{Number, Value};

use crate::compare::assign::assign;

/// Deep JSON equality where numbers compare by value (`1 == 1.0`), objects by keys regardless
/// of order, arrays element by element in order. Strings and numbers never coerce (`"1" != 1`).
///
/// ```
/// use agent_test::matcher::json_eq;
/// use serde_json::json;
/// assert!(json_eq(&json!({"n": 1, "tags": ["a"]}), &json!({"tags": ["a"], "n": 1.0})));
/// assert!(!json_eq(&json!("1"), &json!(1)));
/// assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
/// ```
pub fn json_eq(a: &Value, b: &Value) -> bool {
    exact_eq(a, b, ExactOptions::default())
}

/// Options of exact matching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ExactOptions {
    /// Arrays compare as multisets (one-to-one, any order).
    pub(crate) unordered: bool,
    /// An expected `"*"` matches any value.
    pub(crate) wildcard: bool,
}

/// Deep equality of an expected value against an actual one, with options.
pub(crate) fn exact_eq(expected: &Value, actual: &Value, opts: ExactOptions) -> bool {
    match (expected, actual) {
        (Value::String(s), _) if opts.wildcard && s == "*" => true,
        (Value::Number(x), Value::Number(y)) => number_eq(x, y),
        (Value::Array(x), Value::Array(y)) if opts.unordered => {
            x.len() == y.len()
                && assign(x.len(), y.len(), |i, j| {
                    x.get(i)
                        .zip(y.get(j))
                        .is_some_and(|(a, b)| exact_eq(a, b, opts))
                })
                .iter()
                .all(Option::is_some)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| exact_eq(x, y, opts))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| exact_eq(v, w, opts)))
        }
        _ => expected == actual,
    }
}

fn number_eq(x: &Number, y: &Number) -> bool {
    // Integers compare exactly (no f64 rounding above 2^53); anything else by f64 value.
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return a == b;
    }
    match (x.as_f64(), y.as_f64()) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_by_value() {
        assert!(json_eq(&json!(1), &json!(1.0)));
        assert!(json_eq(&json!(-3), &json!(-3.0)));
        assert!(!json_eq(&json!(1), &json!(1.5)));
        assert!(json_eq(&json!(u64::MAX), &json!(u64::MAX)));
        assert!(!json_eq(
            &json!(9007199254740993u64),
            &json!(9007199254740992u64)
        ));
    }

    #[test]
    fn structures() {
        assert!(json_eq(
            &json!({"a": {"b": [1, {"c": null}]}}),
            &json!({"a": {"b": [1.0, {"c": null}]}})
        ));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!json_eq(&json!({"a": null}), &json!({})));
        assert!(!json_eq(&json!(true), &json!("true")));
    }

    #[test]
    fn unordered_and_wildcards() {
        let o = ExactOptions {
            unordered: true,
            wildcard: true,
        };
        assert!(exact_eq(
            &json!(["vip", "urgent"]),
            &json!(["urgent", "vip"]),
            o
        ));
        assert!(!exact_eq(
            &json!(["vip", "vip"]),
            &json!(["vip", "urgent"]),
            o
        ));
        // A wildcard must not steal the element a specific value needs.
        assert!(exact_eq(&json!(["*", "a"]), &json!(["a", "b"]), o));
        assert!(exact_eq(
            &json!({"id": "*", "tags": [[1, 2]]}),
            &json!({"id": 9, "tags": [[2, 1]]}),
            o
        ));
        assert!(!exact_eq(&json!("*"), &json!("x"), ExactOptions::default()));
    }
}
