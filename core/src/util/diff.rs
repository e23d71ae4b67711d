//! Diffs of expected against actual, for failure reports.

use serde_json::Value;
use similar::{ChangeTag, TextDiff};

/// A diff of two texts. Single-line texts get a word diff (`[-removed-]{+added+}`);
/// multi-line texts a line diff with `-`/`+` markers.
///
/// ```
/// use agent_test::report::text_diff;
/// assert_eq!(text_diff("refund processed", "refund pending"), "refund [-processed-]{+pending+}");
/// assert_eq!(text_diff("a\nb\n", "a\nc\n"), "  a\n- b\n+ c\n");
/// ```
pub fn text_diff(expected: &str, actual: &str) -> String {
    if !expected.contains('\n') && !actual.contains('\n') {
        let diff = TextDiff::from_words(expected, actual);
        let mut out = String::new();
        for change in diff.iter_all_changes() {
            let v = change.value();
            match change.tag() {
                ChangeTag::Equal => out.push_str(v),
                ChangeTag::Delete => {
                    out.push_str("[-");
                    out.push_str(v);
                    out.push_str("-]");
                }
                ChangeTag::Insert => {
                    out.push_str("{+");
                    out.push_str(v);
                    out.push_str("+}");
                }
            }
        }
        return merge_adjacent(&out);
    }
    line_diff(expected, actual)
}

/// `[-a-][- -][-b-]` → `[-a b-]`: word diffs otherwise mark each word separately.
fn merge_adjacent(s: &str) -> String {
    s.replace("-][-", "").replace("+}{+", "")
}

/// A diff of two JSON values, pretty-printed with sorted keys, line by line.
///
/// ```
/// use agent_test::report::json_diff;
/// use serde_json::json;
/// let d = json_diff(&json!({"order_id": "ORD-2"}), &json!({"order_id": "ORD-1"}));
/// assert_eq!(d, "  {\n-   \"order_id\": \"ORD-2\"\n+   \"order_id\": \"ORD-1\"\n  }\n");
/// ```
pub fn json_diff(expected: &Value, actual: &Value) -> String {
    line_diff(&pretty(expected), &pretty(actual))
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

fn line_diff(expected: &str, actual: &str) -> String {
    let diff = TextDiff::from_lines(expected, actual);
    let mut out = String::new();
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            ChangeTag::Equal => "  ",
            ChangeTag::Delete => "- ",
            ChangeTag::Insert => "+ ",
        };
        out.push_str(sign);
        out.push_str(change.value());
        if change.missing_newline() {
            out.push('\n');
        }
    }
    out
}
