//! No input is reinterpreted: the native JSON forms (scenarios, recordings) are read strictly.
//! A key given twice, an unknown field, an impossible constraint or a matcher written in
//! another syntax is an error naming the file, the path and what was expected; a leading byte
//! order mark is skipped.

use agent_test_runtime::RecordedRun;
use agent_test_runtime::model::Scenario;

fn scenario_error(text: &str) -> String {
    match agent_test_runtime::load_json::<Scenario>("s.json", text) {
        Ok(s) => panic!("loads: {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_repeated_key_in_a_scenario_is_an_error() {
    let text = r#"{"name": "s", "steps": [{"step": "user", "text": "hi", "expect": [
        {"check": {"type": "tool", "name": "refund", "count": {"exactly": 1}, "count": {"exactly": 0}}}]}]}"#;
    assert_eq!(
        scenario_error(text),
        "s.json: at steps[0].expect[0].check.count: duplicate key `count`: first at line 2, \
         column 54, again at line 2, column 79; a key may appear only once in an object"
    );
}

#[test]
fn a_repeated_key_in_a_recording_is_an_error() {
    let text = r#"{"scenario": {"name": "x"}, "transcript": {"turns": [
  {"index": 0, "input": "hi", "reply": {"text": "ok", "calls": [
    {"name": "refund", "arguments": {"amount": 10, "amount": 1000}}]}}]}}"#;
    let err = RecordedRun::from_json(text, "run.json").unwrap_err();
    assert_eq!(
        err.to_string(),
        "run.json: at transcript.turns[0].reply.calls[0].arguments.amount: duplicate key \
         `amount`: first at line 3, column 38, again at line 3, column 52; a key may appear \
         only once in an object"
    );
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = std::env::temp_dir().join(format!("agent-test-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scenario = dir.join("s.json");
    std::fs::write(
        &scenario,
        "\u{feff}{\"name\": \"s\", \"steps\": [{\"step\": \"user\", \"text\": \"hi\"}]}",
    )
    .unwrap();
    let s: Scenario = agent_test_runtime::load_json_file(&scenario).expect("a BOM is skipped");
    assert_eq!(s.name, "s");
    let run = dir.join("run.json");
    std::fs::write(
        &run,
        "\u{feff}{\"scenario\": {\"name\": \"x\"}, \"transcript\": {\"turns\": []}}",
    )
    .unwrap();
    assert_eq!(
        RecordedRun::load(&run)
            .expect("a BOM is skipped")
            .scenario
            .name,
        "x"
    );
    // Only one: a second mark is text, and not JSON.
    let err = agent_test_runtime::load_json::<Scenario>("s.json", "\u{feff}\u{feff}{}")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("s.json: not valid JSON: expected value"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A misspelt option is an error at its place, in every check family (the text, tool set,
/// sequence and no-tools checks used to ignore it, silently changing the verdict).
#[test]
fn a_misspelt_option_is_an_error_at_its_place() {
    let cases = [
        (
            r#"{"type": "text", "source": "reply", "op": "contains", "value": "Refund", "case_sensitve": true}"#,
            "unknown field `case_sensitve`, expected one of `source`, `op`, `value`, `case_sensitive`, `trim`",
        ),
        (
            r#"{"type": "tool_set", "mode": "required", "tools": ["a"], "succeded": true}"#,
            "unknown field `succeded`, expected one of `mode`, `tools`, `succeeded`",
        ),
        (
            r#"{"type": "tool_sequence", "tools": ["a"], "succeded": true}"#,
            "unknown field `succeded`, expected `tools` or `succeeded`",
        ),
        (
            r#"{"type": "no_tools", "succeded": true}"#,
            "unknown field `succeded`, expected `succeeded`",
        ),
        (
            r#"{"type": "tool", "name": "a", "count": {"exactly": 1, "at_mots": 2}}"#,
            "unknown field `at_mots`, expected one of `exactly`, `at_least`, `at_most`, `between`",
        ),
        (
            r#"{"type": "field", "path": "a", "matcher": {"matcher": "any", "optinal": true}}"#,
            "unknown field `optinal`, there are no fields",
        ),
    ];
    for (check, message) in cases {
        let text = format!(
            r#"{{"name": "s", "steps": [{{"step": "user", "text": "hi", "expect": [{{"check": {check}}}]}}]}}"#
        );
        let field = message.split('`').nth(1).unwrap();
        let place = match field {
            "at_mots" => "count.at_mots".to_owned(),
            "optinal" => "matcher.optinal".to_owned(),
            f => f.to_owned(),
        };
        assert_eq!(
            scenario_error(&text),
            format!("s.json: at steps[0].expect[0].check.{place}: {message}")
        );
    }
}
