//! Scenario files: agent-test's own form and the five seed formats, along one road — the
//! syntax decided once from the name, the text parsed once, the format named or detected once.

use std::path::Path;

use serde_json::Value;

use crate::formats::{self, ImportedCase, SeedFormat, Syntax};
use agent_test_core::scenario::Scenario;
use agent_test_core::util::input::{LoadError, load_value};

/// See [`super::cases_from_text`].
pub(super) fn read_cases(
    text: &str,
    file: &Path,
    format: Option<SeedFormat>,
) -> Result<Vec<ImportedCase>, LoadError> {
    let syntax = Syntax::of(file);
    match (format, syntax) {
        (Some(format), _) => formats::read_as(text, file, syntax, format),
        // agent-test's own form is JSON; YAML and JSON lines files are the seed formats'.
        (None, Syntax::Yaml | Syntax::JsonLines) => formats::read_detected(text, file, syntax),
        (None, Syntax::Json) => {
            if let Some(scenarios) = native_fast(text) {
                return native_cases(scenarios, file);
            }
            let value = agent_test_core::util::input::parse_json(text, file)?;
            match formats::detect_value(&value) {
                Some(f) => formats::read(&value, file, syntax, f),
                None => native_cases(native_scenarios(file, value)?, file),
            }
        }
    }
}

/// Native scenarios as cases, their literals checked (a seed format's reader checks its own).
fn native_cases(scenarios: Vec<Scenario>, file: &Path) -> Result<Vec<ImportedCase>, LoadError> {
    let cases = scenarios
        .into_iter()
        .map(|scenario| ImportedCase {
            scenario,
            recording: None,
        })
        .collect();
    formats::literals_checked(cases, file)
}

/// agent-test's own form read straight from the text, when nothing is wrong with it (see
/// [`agent_test_core::util::typed`]). A document that reads as native scenarios is no seed format's:
/// every seed format is recognised by fields the native form refuses.
fn native_fast(text: &str) -> Option<Vec<Scenario>> {
    use agent_test_core::util::typed::{read, read_array};
    match agent_test_core::util::json::strip_bom(text)
        .trim_start()
        .as_bytes()
        .first()?
    {
        b'[' => read_array(text, false),
        b'{' => read::<Scenario>(text, false)
            .map(|s| vec![s])
            .or_else(|| read::<NativeFile>(text, false).map(|f| f.scenarios)),
        _ => None,
    }
}

/// `{"scenarios": [...]}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NativeFile {
    scenarios: Vec<Scenario>,
}

/// agent-test's own form: one scenario, an array of them, or `{"scenarios": [...]}`.
fn native_scenarios(file: &Path, value: Value) -> Result<Vec<Scenario>, LoadError> {
    match value {
        Value::Array(_) => load_value(file, value),
        Value::Object(ref o) if o.contains_key("scenarios") && !o.contains_key("name") => {
            load_value::<NativeFile>(file, value).map(|f| f.scenarios)
        }
        _ => load_value(file, value).map(|s| vec![s]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path reads what the strict one reads, the same way, and nothing it refuses;
    /// and no seed-format document reads as native scenarios (the fast path runs before the
    /// format is detected).
    #[test]
    fn the_fast_read_agrees_with_the_strict_one() {
        let one = r#"{"name": "s", "tags": ["a"], "steps": [{"step": "user", "text": "hi",
            "expect": [{"check": {"type": "text", "source": "reply", "op": "contains", "value": "x"}}]}]}"#;
        let docs = [
            one.to_owned(),
            format!("[{one}, {one}]"),
            format!(r#"{{"scenarios": [{one}]}}"#),
            // A repeated key, an unknown field, an impossible constraint, the wrong shape.
            one.replace(r#""name": "s","#, r#""name": "s", "name": "t","#),
            one.replace(r#""tags""#, r#""tgas""#),
            one.replace(r#"["a"]"#, r#"["a", "a"]"#),
            r#"{"scenarios": {"name": "s"}}"#.to_owned(),
            format!(r#"{{"scenarios": [{one}], "extra": 1}}"#),
            "[]".to_owned(),
        ];
        for text in &docs {
            let strict = agent_test_core::util::json::parse(text)
                .ok()
                .and_then(|v| native_scenarios(Path::new("s.json"), v).ok());
            assert_eq!(native_fast(text), strict, "{text}");
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut seen = 0;
        for dir in ["docs/seeds", "runtime/tests/properties/seeds"] {
            for entry in std::fs::read_dir(root.join(dir)).expect("seeds") {
                let path = entry.expect("entry").path();
                if path.extension().is_some_and(|e| e == "json") {
                    let text = std::fs::read_to_string(&path).expect("read");
                    assert_eq!(native_fast(&text), None, "{}", path.display());
                    seen += 1;
                }
            }
        }
        assert!(seen > 10, "seed documents read: {seen}");
    }
}
