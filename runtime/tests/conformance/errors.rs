//! Every error path of the importers, one row each: the format (or `None` to detect it), the
//! file's name, its text, and the full message (`file: at path: message`, or `file: message`
//! without a path). A table reports every failing row at once.

use agent_test_runtime::formats::{self, SeedFormat};
use serde_json::{Value, json};

use crate::support::load_error;

use SeedFormat::{Lamdis, McpLab, Mibo, MorganaBench, PromptKit};

/// A row: the format named (`None`: detected), the file's name, its text, the full message.
type ErrorRow = (Option<SeedFormat>, &'static str, String, &'static str);

/// The full message of loading `text`, or why there is none.
fn error_of(format: Option<SeedFormat>, text: &str, file: &str) -> Result<String, String> {
    match formats::from_text(text, file, format) {
        Ok(cases) => Err(format!("loads, giving {} case(s)", cases.len())),
        Err(e) => Ok(e.to_string()),
    }
}

/// Loads every row and checks its full message; reports every failing row at once.
#[track_caller]
fn assert_errors(rows: &[ErrorRow]) {
    let failures: Vec<String> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, (format, file, text, expected))| {
            let got = error_of(*format, text, file);
            (got.as_deref() != Ok(*expected)).then(|| {
                let format = format.map_or_else(|| "detected".to_owned(), |f| f.to_string());
                format!("row {i} ({format}, {file}):\n  text:     {text}\n  expected: {expected}\n  got:      {got:?}")
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n\n")
    );
}

/// A Mibo case of one input and these procedural assertions.
fn mibo_procedural(assertion: Value) -> String {
    json!({"input_utterance": "x", "assertions": {"procedural": [assertion]}}).to_string()
}

/// A Mibo `node_call` MUST_CALL of `a` with these expected arguments.
fn mibo_args(args: Value) -> String {
    mibo_procedural(json!({"target": "node_call", "condition": "MUST_CALL",
                           "expected_name": "a", "expected_arguments": args}))
}

/// Every PromptKit assertion type, as the loader lists them.
pub(crate) const PROMPTKIT_TYPES: &str = "`content_includes`, `content_includes_any`, \
    `content_not_includes`, `content_matches`, `min_length`, `max_length`, `json_valid`, \
    `json_schema`, `json_path`, `tools_called`, `tools_not_called`, `tool_args`, \
    `tool_calls_with_args`, `tools_called_session`, `tools_not_called_session`, \
    `tool_args_session`, `tool_args_excluded_session`, `tools_not_called_with_args`, \
    `tool_call_count`, `tool_call_sequence`, `tool_call_chain`, `tool_result_includes`, \
    `tool_result_matches`, `no_tool_errors`, `latency_budget`, `agent_invoked`, \
    `agent_not_invoked`, `agent_response_contains`, `state_is`, `transitioned_to`, \
    `workflow_complete`, `guardrail_triggered`, `contains`, `contains_any`, \
    `content_excludes`, `regex`, `is_valid_json`, `valid_json`, `tool_called`";

/// The message for a PromptKit `type: [tools_called]`.
const PROMPTKIT_TYPE_ARRAY: &str = concat!(
    "x.yaml: at spec.turns[0].assertions[0].type: expected one of ",
    "`content_includes`, `content_includes_any`, `content_not_includes`, `content_matches`, ",
    "`min_length`, `max_length`, `json_valid`, `json_schema`, `json_path`, `tools_called`, ",
    "`tools_not_called`, `tool_args`, `tool_calls_with_args`, `tools_called_session`, ",
    "`tools_not_called_session`, `tool_args_session`, `tool_args_excluded_session`, ",
    "`tools_not_called_with_args`, `tool_call_count`, `tool_call_sequence`, ",
    "`tool_call_chain`, `tool_result_includes`, `tool_result_matches`, `no_tool_errors`, ",
    "`latency_budget`, `agent_invoked`, `agent_not_invoked`, `agent_response_contains`, ",
    "`state_is`, `transitioned_to`, `workflow_complete`, `guardrail_triggered`, `contains`, ",
    "`contains_any`, `content_excludes`, `regex`, `is_valid_json`, `valid_json`, ",
    "`tool_called`, got an array ([\"tools_called\"])"
);

/// A PromptKit scenario of one user turn with these assertions (YAML flow items).
fn promptkit_turn(assertions: &str) -> String {
    format!(
        "kind: Scenario\nspec:\n  turns:\n    - role: user\n      content: hi\n      assertions:\n{assertions}"
    )
}

/// A Lamdis test of these steps (JSON objects), after a user message.
fn lamdis_after_message(step: &str) -> String {
    format!(r#"{{"steps": [{{"type": "message", "content": "hi"}}, {step}]}}"#)
}

/// A MorganaBench example of one user message and these assertions.
fn mb_assertions(assertions: Value) -> String {
    json!({"inputs": {"messages": [{"role": "user", "content": "hi"}]},
           "expectations": {"assertions": assertions}})
    .to_string()
}

/// A MorganaBench `tool_called` of `t` with these parameters.
fn mb_parameters(parameters: Value) -> String {
    mb_assertions(json!([{"assert_that": "tool_called", "tool": "t", "parameters": parameters}]))
}

/// A MorganaBench example of these input messages.
fn mb_messages(messages: Value) -> String {
    json!({"inputs": {"messages": messages}, "expectations": {}}).to_string()
}

/// The shared readers (`read.rs`): an object that is not one, a tag that is not a string, a
/// wrapper that is not a list.
#[test]
fn shared_reader_errors() {
    assert_errors(&[
        (
            Some(Mibo),
            "x.json",
            mibo_procedural(json!("http_status")),
            "x.json: at assertions.procedural[0]: expected an object, got a string (\"http_status\")",
        ),
        (
            Some(PromptKit),
            "x.yaml",
            promptkit_turn("        - tools_called\n"),
            "x.yaml: at spec.turns[0].assertions[0]: expected an object, got a string (\"tools_called\")",
        ),
        (
            Some(Lamdis),
            "x.json",
            r#"{"steps": ["hi"]}"#.into(),
            "x.json: at steps[0]: expected an object, got a string (\"hi\")",
        ),
        (
            Some(McpLab),
            "x.yaml",
            "prompt: p\neval:\n  response_assertions: [contains]\n".into(),
            "x.yaml: at eval.response_assertions[0]: expected an object, got a string (\"contains\")",
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_procedural(json!({"target": 3})),
            "x.json: at assertions.procedural[0].target: expected one of `node_call`, \
             `json_match`, `response_regex`, `json_schema`, `http_status`, `response_time`, \
             `token_limit`, got a number (3)",
        ),
        (
            Some(PromptKit),
            "x.yaml",
            promptkit_turn("        - type: [tools_called]\n"),
            PROMPTKIT_TYPE_ARRAY,
        ),
        (
            Some(Lamdis),
            "x.json",
            r#"{"steps": [{"type": null, "content": "hi"}]}"#.into(),
            "x.json: at steps[0].type: expected one of `message`, `request`, `assistant_check`, \
             `user_objective`, `extract`, got null",
        ),
        (
            Some(McpLab),
            "x.yaml",
            "scenarios: 3\n".into(),
            "x.yaml: at scenarios: expected a list, got a number (3)",
        ),
        (
            Some(McpLab),
            "x.yaml",
            "scenarios:\n  prompt: p\n".into(),
            "x.yaml: at scenarios: expected a list, got an object ({\"prompt\":\"p\"})",
        ),
        (
            Some(Lamdis),
            "x.json",
            r#"{"tests": 3}"#.into(),
            "x.json: at tests: expected a list, got a number (3)",
        ),
        (
            Some(Lamdis),
            "x.json",
            r#"{"tests": null}"#.into(),
            "x.json: at tests: expected a list, got null",
        ),
    ]);
}

/// The message for a file of no known format, after `file: ` (it has no path).
macro_rules! unknown_format {
    () => {
        "not a test file of a known format: expected Mibo test cases, MCPLab or PromptKit \
         scenarios, Lamdis tests or MorganaBench examples (name one with `--input-format`)"
    };
}

/// A file of no known format, detected (`formats::from_text(text, file, None)`).
#[test]
fn unknown_format_errors() {
    assert_errors(&[
        (
            None,
            "x.json",
            r#"{"name": "refund", "steps": []}"#.into(),
            concat!("x.json: ", unknown_format!()),
        ),
        (
            None,
            "x.json",
            "[]".into(),
            concat!("x.json: ", unknown_format!()),
        ),
        (
            None,
            "suite/x.yaml",
            "name: refund
"
            .into(),
            concat!("suite/x.yaml: ", unknown_format!()),
        ),
    ]);
}

/// Mibo (`mibo.rs`).
#[test]
fn mibo_errors() {
    let m = Some(Mibo);
    assert_errors(&[
        (
            m,
            "x.json",
            r#"{"input_utterance": "x", "context": 3}"#.into(),
            "x.json: at context: expected an object of variables, got a number (3)",
        ),
        (
            m,
            "x.json",
            r#"{"context": ["USER_ID"], "content": {"input_utterance": "x"}}"#.into(),
            "x.json: at context: expected an object of variables, got an array ([\"USER_ID\"])",
        ),
        (
            m,
            "x.json",
            r#"[{"input_utterance": "x"}, {"context": "c", "content": {"input_utterance": "y"}}]"#
                .into(),
            "x.json: at [1].context: expected an object of variables, got a string (\"c\")",
        ),
        (
            m,
            "x.json",
            r#"{"input_utterance": "x", "turns": [{"input_utterance": "y"}]}"#.into(),
            "x.json: at input_utterance: a case with `turns` gives each turn its own \
             `input_utterance`",
        ),
        (
            m,
            "x.json",
            r#"{"custom_body": {}, "turns": [{"input_utterance": "y"}]}"#.into(),
            "x.json: at custom_body: a case with `turns` gives each turn its own `custom_body`",
        ),
        (
            m,
            "x.json",
            r#"{"turns": [{"input_utterance": "a"}, {"assertions": {}}]}"#.into(),
            "x.json: at turns[1]: expected `input_utterance` or `custom_body`",
        ),
        (
            m,
            "x.json",
            mibo_procedural(json!({"target": "json_schema", "schema": "object"})),
            "x.json: at assertions.procedural[0].schema: expected a JSON Schema object, got a \
             string (\"object\")",
        ),
        (
            m,
            "x.json",
            mibo_procedural(json!({"target": "http_status"})),
            "x.json: at assertions.procedural[0]: expected `expected_status`, an HTTP status code",
        ),
        (
            m,
            "x.json",
            mibo_procedural(json!({"target": "http_status", "expected_status": 70000})),
            "x.json: at assertions.procedural[0].expected_status: expected an HTTP status from \
             100 to 599, got 70000",
        ),
        (
            m,
            "x.json",
            mibo_procedural(json!({"target": "response_time"})),
            "x.json: at assertions.procedural[0]: missing field `max_ms`",
        ),
        (
            m,
            "x.json",
            mibo_procedural(json!({"target": "node_call", "condition": "CALL_COUNT",
                                   "expected_name": "a"})),
            "x.json: at assertions.procedural[0]: CALL_COUNT needs `expected_count`",
        ),
        (
            m,
            "x.json",
            mibo_procedural(json!({"target": "node_call", "condition": "MUST_CALL",
                                   "expected_name": "a", "expected_count": 2})),
            "x.json: at assertions.procedural[0].expected_count: `expected_count` goes with \
             `condition: CALL_COUNT`",
        ),
        (
            m,
            "x.json",
            mibo_procedural(json!({"target": "node_call", "condition": "MUST_CALL",
                "expected_name": "Agent", "expected_tool_calls": [
                    {"condition": "MUST_CALL", "expected_name": "t", "expected_count": 1}]})),
            "x.json: at assertions.procedural[0].expected_tool_calls[0].expected_count: \
             `expected_count` goes with `condition: CALL_COUNT`",
        ),
        (
            m,
            "x.json",
            mibo_args(json!({"sku": {"matcher": "exact"}})),
            "x.json: at assertions.procedural[0].expected_arguments.sku: an `exact` matcher \
             takes either `value` or `expression`",
        ),
        (
            m,
            "x.json",
            mibo_args(
                json!({"sku": {"matcher": "exact", "value": "A", "expression": "JSON_EXTRACT(X, 'sku')"}}),
            ),
            "x.json: at assertions.procedural[0].expected_arguments.sku: an `exact` matcher \
             takes either `value` or `expression`",
        ),
        (
            m,
            "x.json",
            mibo_args(json!({"sku": {"matcher": "one_of", "variants": []}})),
            "x.json: at assertions.procedural[0].expected_arguments.sku.variants: expected at \
             least one variant",
        ),
        (
            m,
            "x.json",
            mibo_args(json!({"sku": {"matcher": "one_of"}})),
            "x.json: at assertions.procedural[0].expected_arguments.sku.variants: expected at \
             least one variant",
        ),
        (
            m,
            "x.json",
            json!({"input_utterance": "x", "assertions": {"semantic": [
                {"criteria": "c", "output_key": "summary"}]}})
            .to_string(),
            "x.json: at assertions.semantic[0].output_key: `output_key` reads the output of \
             `target_node`, which is missing",
        ),
    ]);
}

/// PromptKit (`promptkit.rs`).
#[test]
fn promptkit_errors() {
    let p = Some(PromptKit);
    assert_errors(&[
        (
            p,
            "x.yaml",
            "kind: Workflow\nspec:\n  turns: [{role: user, content: hi}]\n".into(),
            "x.yaml: at kind: expected `Scenario`, got a string (\"Workflow\")",
        ),
        (
            p,
            "x.yaml",
            "- kind: Scenario\n  spec:\n    turns: [{role: user, content: hi}]\n- kind: 3\n  spec:\n    turns: [{role: user, content: hi}]\n"
                .into(),
            "x.yaml: at [1].kind: expected `Scenario`, got a number (3)",
        ),
        (
            p,
            "x.yaml",
            "kind: Scenario\nspec:\n  turns:\n    - role: system\n      content: Be brief.\n      assertions: []\n    - role: user\n      content: hi\n"
                .into(),
            "x.yaml: at spec.turns[0].assertions: a system turn gets no reply to check",
        ),
        // A missing or empty required parameter is a failing verdict ("misconfigured: …"),
        // not a refused file (`promptkit::misconfigured_assertions_fail`); what is malformed
        // still is.
        (
            p,
            "x.yaml",
            promptkit_turn(
                "        - {type: tool_call_chain, params: {steps: [{tool: a, result_include: [x]}]}}\n",
            ),
            "x.yaml: at spec.turns[0].assertions[0].params.steps[0].result_include: unknown \
             field `result_include` (did you mean `result_includes`?), expected one of `tool`, \
             `result_includes`, `result_matches`, `args_match`, `no_error`",
        ),
        (
            p,
            "x.yaml",
            promptkit_turn(
                "        - {type: content_not_includes, params: {patterns: [x], match_mode: words}}\n",
            ),
            "x.yaml: at spec.turns[0].assertions[0].params.match_mode: expected `substring` or \
             `word_boundary`, got `words`",
        ),
        (
            p,
            "x.yaml",
            promptkit_turn("        - {type: latency_budget, params: {max_ms: fast}}\n"),
            "x.yaml: at spec.turns[0].assertions[0].params.max_ms: expected a number of \
             milliseconds, got a string (\"fast\")",
        ),
        (
            p,
            "x.yaml",
            promptkit_turn("        - {type: tools_called, params: {tools: [a], min_calls: 0}}\n"),
            "x.yaml: at spec.turns[0].assertions[0].params.min_calls: expected at least 1: \
             `min_calls: 0` with no `max_calls` can never fail",
        ),
        (
            p,
            "x.yaml",
            promptkit_turn(
                "        - {type: tools_not_called_with_args, params: {tool_name: t, forbidden_args: {a: []}}}\n",
            ),
            "x.yaml: at spec.turns[0].assertions[0].params.forbidden_args.a: expected at least \
             one value",
        ),
        (
            p,
            "x.yaml",
            promptkit_turn("        - {type: json_path, params: {expression: a, contains: 3}}\n"),
            "x.yaml: at spec.turns[0].assertions[0].params.contains: expected an array of \
             items, got a number (3)",
        ),
        (
            p,
            "x.yaml",
            promptkit_turn(
                "        - {type: guardrail_triggered, params: {validator_type: pii, expected: true, should_trigger: false}}\n",
            ),
            "x.yaml: at spec.turns[0].assertions[0].params.should_trigger: `expected` and \
             `should_trigger` say opposite things: give one",
        ),
    ]);
}

/// MorganaBench (`morganabench.rs`).
#[test]
fn morganabench_errors() {
    let mb = Some(MorganaBench);
    assert_errors(&[
        (
            mb,
            "x.json",
            mb_parameters(json!(3)),
            "x.json: at expectations.assertions[0].parameters: expected an array, got a number (3)",
        ),
        (
            mb,
            "x.json",
            mb_parameters(json!({"param": "to"})),
            "x.json: at expectations.assertions[0].parameters: expected an array, got an \
             object ({\"param\":\"to\"})",
        ),
        (
            mb,
            "x.json",
            mb_parameters(json!([{"param": "to"}])),
            "x.json: at expectations.assertions[0].parameters[0]: missing field `matcher`",
        ),
        // `EqualsMatcher.value` is `str | int | float | bool`.
        (
            mb,
            "x.json",
            mb_parameters(
                json!([{"param": "to", "matcher": {"match_as": "equality", "value": ["a", "b"]}}]),
            ),
            "x.json: at expectations.assertions[0].parameters[0].matcher.value: expected a \
             string, number or boolean (an `equality` value is `str | int | float | bool`), got \
             an array ([\"a\",\"b\"])",
        ),
        (
            mb,
            "x.json",
            mb_parameters(
                json!([{"param": "to", "matcher": {"match_as": "equality", "value": {"city": "Paris"}}}]),
            ),
            "x.json: at expectations.assertions[0].parameters[0].matcher.value: expected a \
             string, number or boolean (an `equality` value is `str | int | float | bool`), got \
             an object ({\"city\":\"Paris\"})",
        ),
        (
            mb,
            "x.json",
            mb_parameters(
                json!([{"param": "to", "matcher": {"match_as": "optional", "default": {"match_as": "equality", "value": null}}}]),
            ),
            "x.json: at expectations.assertions[0].parameters[0].matcher.default.value: expected \
             a string, number or boolean (an `equality` value is `str | int | float | bool`), \
             got null",
        ),
        (
            mb,
            "x.json",
            mb_parameters(json!([{"matcher": {"match_as": "missing"}}])),
            "x.json: at expectations.assertions[0].parameters[0]: expected either `param` (one \
             parameter) or a non-empty `params` (a group)",
        ),
        (
            mb,
            "x.json",
            mb_parameters(
                json!([{"params": [], "matcher": {"match_as": "free_text", "value": "x"}}]),
            ),
            "x.json: at expectations.assertions[0].parameters[0]: expected either `param` (one \
             parameter) or a non-empty `params` (a group)",
        ),
        (
            mb,
            "x.json",
            mb_parameters(
                json!([{"param": "to", "params": ["to"], "matcher": {"match_as": "missing"}}]),
            ),
            "x.json: at expectations.assertions[0].parameters[0]: expected either `param` (one \
             parameter) or a non-empty `params` (a group)",
        ),
        (
            mb,
            "x.json",
            mb_parameters(json!([{"param": 3, "matcher": {"match_as": "missing"}}])),
            "x.json: at expectations.assertions[0].parameters[0]: expected either `param` (one \
             parameter) or a non-empty `params` (a group)",
        ),
        (
            mb,
            "x.json",
            mb_parameters(json!([{"param": "to", "matcher": {"match_as": "equality"}}])),
            "x.json: at expectations.assertions[0].parameters[0].matcher: missing field `value`",
        ),
        (
            mb,
            "x.json",
            mb_parameters(json!([{"param": "to", "matcher": {"match_as": "optional"}}])),
            "x.json: at expectations.assertions[0].parameters[0].matcher: missing field `default`",
        ),
        (
            mb,
            "x.json",
            mb_parameters(json!([{"param": "to", "matcher": {"match_as": "optional",
                "default": {"match_as": "equality"}}}])),
            "x.json: at expectations.assertions[0].parameters[0].matcher.default: missing field \
             `value`",
        ),
        (
            mb,
            "x.json",
            mb_messages(json!([])),
            "x.json: at inputs.messages: expected at least one message (the user's request)",
        ),
        (
            mb,
            "x.json",
            format!("[{}]", mb_messages(json!([]))),
            "x.json: at [0].inputs.messages: expected at least one message (the user's request)",
        ),
        (
            mb,
            "x.jsonl",
            mb_messages(json!([])),
            "x.jsonl: at line 1: inputs.messages: expected at least one message (the user's \
             request)",
        ),
        (
            mb,
            "x.json",
            mb_messages(
                json!([{"role": "tool", "content": "42"}, {"role": "user", "content": "hi"}]),
            ),
            "x.json: at inputs.messages[0].role: expected `user`, `assistant`, `system` or \
             `developer`, got `tool`",
        ),
        (
            mb,
            "x.json",
            mb_messages(json!([{"role": "system", "content": "Be brief."},
                               {"role": "function", "content": "{}"},
                               {"role": "user", "content": "hi"}])),
            "x.json: at inputs.messages[1].role: expected `user`, `assistant`, `system` or \
             `developer`, got `function`",
        ),
    ]);
}

/// Lamdis (`lamdis.rs`). A `variable_check` among a `user_objective`'s `attachedChecks` is
/// asserted in `lamdis::malformed_tests_name_the_file_and_the_path`.
#[test]
fn lamdis_errors() {
    let l = Some(Lamdis);
    assert_errors(&[
        (
            l,
            "x.json",
            lamdis_after_message(
                r#"{"type": "assistant_check", "mode": "includes", "includes": ["risk"], "scope": "all"}"#,
            ),
            "x.json: at steps[1].scope: unknown scope `all`, expected one of `last`, `transcript`",
        ),
        (
            l,
            "x.json",
            lamdis_after_message(
                r#"{"type": "assistant_check", "mode": "judge", "rubric": "r", "scope": 1}"#,
            ),
            "x.json: at steps[1].scope: expected one of `last`, `transcript`, got a number (1)",
        ),
        (
            l,
            "x.json",
            lamdis_after_message(
                r#"{"type": "extract", "variableName": "orderId", "description": "d", "scope": "conversation"}"#,
            ),
            "x.json: at steps[1].scope: unknown scope `conversation`, expected one of `last`, \
             `transcript`",
        ),
        (
            l,
            "x.json",
            r#"{"steps": [{"type": "user_objective", "description": "d", "attachedChecks": [{"type": "assistant_check", "mode": "includes", "includes": ["a"], "scope": "turn"}]}]}"#
                .into(),
            "x.json: at steps[0].attachedChecks[0].scope: unknown scope `turn`, expected one of \
             `last`, `transcript`",
        ),
    ]);
}

/// An example without `expectations`: at the root, the message alone.
#[test]
fn morganabench_missing_expectations_alone() {
    assert_eq!(
        load_error(
            MorganaBench,
            r#"{"inputs": {"messages": [{"role": "user", "content": "hi"}]}}"#,
            "x.json"
        ),
        "x.json: missing field `expectations`"
    );
}

/// An example without `expectations` in an array: the path is the example's index.
#[test]
fn morganabench_missing_expectations_in_an_array() {
    assert_eq!(
        load_error(
            MorganaBench,
            r#"[{"inputs": {"messages": [{"role": "user", "content": "hi"}]}}]"#,
            "x.json"
        ),
        "x.json: at [0]: missing field `expectations`"
    );
}

/// An example without `expectations` on a JSONL line: the path is the line.
#[test]
fn morganabench_missing_expectations_on_a_line() {
    assert_eq!(
        load_error(
            MorganaBench,
            r#"{"inputs": {"messages": [{"role": "user", "content": "hi"}]}}"#,
            "x.jsonl"
        ),
        "x.jsonl: at line 1: missing field `expectations`"
    );
}

/// A key given twice in one object, in any format: an error naming the path and both places,
/// never "the last one wins" (a Mibo assertion with two `condition`s would flip its meaning).
#[test]
fn duplicate_keys_are_errors_in_every_format() {
    assert_errors(&[
        (
            None,
            "case.json",
            "{\"input_utterance\": \"x\", \"assertions\": {\"procedural\": [\n  \
             {\"target\": \"node_call\", \"expected_name\": \"a\",\n   \
             \"condition\": \"MUST_CALL\",\n   \"condition\": \"MUST_NOT_CALL\"}]}}"
                .into(),
            "case.json: at assertions.procedural[0].condition: duplicate key `condition`: \
             first at line 3, column 4, again at line 4, column 4; a key may appear only once \
             in an object",
        ),
        (
            Some(Lamdis),
            "t.json",
            r#"{"steps": [{"type": "message", "content": "hi", "content": "bye"}]}"#.into(),
            "t.json: at steps[0].content: duplicate key `content`: first at line 1, column 32, \
             again at line 1, column 49; a key may appear only once in an object",
        ),
        (
            None,
            "mb.json",
            r#"{"inputs": {"messages": []}, "expectations": {}, "inputs": {"messages": []}}"#
                .into(),
            "mb.json: at inputs: duplicate key `inputs`: first at line 1, column 2, again at \
             line 1, column 50; a key may appear only once in an object",
        ),
        (
            None,
            "mb.jsonl",
            format!(
                "{}\n{}",
                mb_messages(json!([{"role": "user", "content": "hi"}])),
                r#"{"inputs": {"messages": [{"role": "user", "role": "assistant", "content": "hi"}]}, "expectations": {}}"#
            ),
            "mb.jsonl: at line 2: inputs.messages[0].role: duplicate key `role`: first at \
             line 2, column 27, again at line 2, column 43; a key may appear only once in an \
             object",
        ),
        (
            None,
            "s.yaml",
            "prompt: p\neval:\n  response_assertions:\n    - type: contains\n      value: a\n      value: b\n"
                .into(),
            "s.yaml: at eval.response_assertions[0].value: duplicate key `value`: first at \
             line 5, column 7, again at line 6, column 7; a key may appear only once in an \
             object",
        ),
        (
            Some(PromptKit),
            "p.yaml",
            promptkit_turn(
                "        - type: content_includes\n          params: {patterns: [a]}\n          type: tools_called\n",
            ),
            "p.yaml: at spec.turns[0].assertions[0].type: duplicate key `type`: first at line \
             7, column 11, again at line 9, column 11; a key may appear only once in an object",
        ),
    ]);
}

/// A UTF-8 byte order mark at the start of a file (as some Windows editors write) is skipped.
#[test]
fn a_byte_order_mark_is_skipped_in_every_format() {
    let bom = |text: &str| format!("\u{feff}{text}");
    let files = [
        (
            "mibo.json",
            bom(r#"{"scenario": "s", "input_utterance": "hi"}"#),
        ),
        ("mcplab.yaml", bom("prompt: hi\n")),
        (
            "promptkit.yaml",
            bom("kind: Scenario\nspec:\n  turns:\n    - role: user\n      content: hi\n"),
        ),
        (
            "lamdis.json",
            bom(r#"{"steps": [{"type": "message", "content": "hi"}]}"#),
        ),
        (
            "mb.json",
            bom(&mb_messages(json!([{"role": "user", "content": "hi"}]))),
        ),
        (
            "mb.jsonl",
            bom(&format!(
                "{0}\n{0}\n",
                mb_messages(json!([{"role": "user", "content": "hi"}]))
            )),
        ),
    ];
    for (file, text) in files {
        let cases = formats::from_text(&text, file, None)
            .unwrap_or_else(|e| panic!("{file} with a byte order mark: {e}"));
        assert!(!cases.is_empty(), "{file}");
        assert!(formats::detect(&text, file).is_some(), "{file}");
    }
}

/// A constraint no run can meet is an error naming the field, in every format: never clamped,
/// never adjusted, never accepted.
#[test]
fn impossible_constraints_are_errors_in_every_format() {
    let objective = |fields: &str| {
        format!(r#"{{"steps": [{{"type": "user_objective", "description": "d"{fields}}}]}}"#)
    };
    assert_errors(&[
        (
            Some(Mibo),
            "x.json",
            mibo_procedural(json!({"target": "http_status", "expected_status": 1000})),
            "x.json: at assertions.procedural[0].expected_status: expected an HTTP status from \
             100 to 599, got 1000",
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_args(
                json!({"when": {"matcher": "date", "expression": "TODAY()", "tolerance_minutes": 5_000_000_000u64}}),
            ),
            "x.json: at assertions.procedural[0].expected_arguments.when.tolerance_minutes: \
             expected at most 4294967295 minutes, got 5000000000",
        ),
        (
            Some(PromptKit),
            "x.yaml",
            promptkit_turn(
                "        - type: agent_invoked\n          params: {agents: [a], min_calls: 0}\n",
            ),
            "x.yaml: at spec.turns[0].assertions[0].params.min_calls: expected at least 1: \
             `min_calls: 0` can never fail (to require that an agent is not invoked, use \
             `agent_not_invoked`)",
        ),
        (
            Some(Lamdis),
            "x.json",
            objective(r#", "minTurns": 0"#),
            "x.json: at steps[0].minTurns: expected at least 1 (a conversation has a turn), got 0",
        ),
        (
            Some(Lamdis),
            "x.json",
            objective(r#", "minTurns": 5, "maxTurns": 2"#),
            "x.json: at steps[0].minTurns: 5 turns can never be met in at most 2 turns \
             (`maxTurns`)",
        ),
        (
            Some(Lamdis),
            "x.json",
            objective(r#", "minTurns": 2, "iterativeConversation": false"#),
            "x.json: at steps[0].minTurns: 2 turns can never be met in one turn \
             (`iterativeConversation: false`)",
        ),
        (
            Some(Lamdis),
            "x.json",
            objective(r#", "maxTurns": 4, "iterativeConversation": false"#),
            "x.json: at steps[0].maxTurns: a conversation with `iterativeConversation: false` \
             has one turn: remove `maxTurns`",
        ),
        (
            Some(Lamdis),
            "x.json",
            r#"{"tests": [{"name": "t", "steps": []}]}"#.into(),
            "x.json: at tests[0]: empty scenario: it has no steps and no checks, so it would \
             test nothing",
        ),
    ]);
}

/// The tail of every Mibo "not a matcher" message.
macro_rules! or_exact {
    () => {
        " (or {\"matcher\": \"exact\", \"value\": ...} to compare the object as it is)"
    };
}

/// A matcher written in another system's syntax, or misspelt, where a format reads data: an
/// error showing the format's own syntax, never a literal compared silently.
#[test]
fn matchers_in_another_syntax_are_errors() {
    let mibo_field = |v: Value| {
        mibo_procedural(json!({"target": "json_match", "field": "data.city", "expected_value": v}))
    };
    assert_errors(&[
        (
            Some(Mibo),
            "x.json",
            mibo_args(json!({"city": {"one_of": ["Lisbon", "Porto"]}})),
            concat!(
                "x.json: at assertions.procedural[0].expected_arguments.city.one_of: `one_of` is ",
                "not Mibo's matcher syntax, and a bare object is compared as data: write ",
                "{\"matcher\": \"one_of\", \"variants\": [...]}",
                or_exact!()
            ),
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_args(json!({"id": {"regex": "^ORD-"}})),
            concat!(
                "x.json: at assertions.procedural[0].expected_arguments.id.regex: `regex` is not ",
                "Mibo's matcher syntax, and a bare object is compared as data: write ",
                "{\"matcher\": \"regex\", \"value\": \"^...$\"}",
                or_exact!()
            ),
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_args(json!({"id": {"matchr": "regex", "value": "^ORD-"}})),
            concat!(
                "x.json: at assertions.procedural[0].expected_arguments.id.matchr: `matchr` (did ",
                "you mean `matcher`?) is not Mibo's matcher syntax, and a bare object is compared ",
                "as data: write {\"matcher\": \"exact\" | \"contains\" | \"regex\" | \"date\" | ",
                "\"one_of\" | \"any\", ...}",
                or_exact!()
            ),
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_args(json!({"to": {"match_as": "email", "value": "ana@example.com"}})),
            concat!(
                "x.json: at assertions.procedural[0].expected_arguments.to.match_as: `match_as` ",
                "is not Mibo's matcher syntax, and a bare object is compared as data: write ",
                "{\"matcher\": \"exact\" | \"contains\" | \"regex\" | \"date\" | \"one_of\" | ",
                "\"any\", ...}",
                or_exact!()
            ),
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_args(json!({"when": {"date": "TODAY()", "tolerance_minutes": 5}})),
            concat!(
                "x.json: at assertions.procedural[0].expected_arguments.when.date: `date` is not ",
                "Mibo's matcher syntax, and a bare object is compared as data: write ",
                "{\"matcher\": \"date\", \"expression\": \"TODAY()\", \"tolerance_minutes\": 0}",
                or_exact!()
            ),
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_field(json!({"any": true})),
            concat!(
                "x.json: at assertions.procedural[0].expected_value.any: `any` is not Mibo's ",
                "matcher syntax, and a bare object is compared as data: write {\"matcher\": ",
                "\"any\"}",
                or_exact!()
            ),
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_args(json!({"address": {"city": {"matcher": "regex", "value": "^L"}}})),
            "x.json: at assertions.procedural[0].expected_arguments.address.city.matcher: a \
             matcher inside a literal object is compared as data: check the nested value on its \
             own, with a dotted path (`\"address.city\": {\"matcher\": ...}` in \
             `expected_arguments`, or a `json_match` on that field)",
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_args(
                json!({"code": {"matcher": "one_of", "variants": [{"type": "string", "patern": "^A"}]}}),
            ),
            "x.json: at assertions.procedural[0].expected_arguments.code.variants[0].patern: \
             unknown JSON Schema keyword `patern` (did you mean `pattern`?): a `one_of` variant \
             is a JSON Schema fragment like {\"type\": \"string\", \"pattern\": \"^x\"}, and JSON \
             Schema ignores a keyword it does not know, so this variant would match anything",
        ),
        (
            Some(Mibo),
            "x.json",
            mibo_args(
                json!({"code": {"matcher": "one_of", "variants": [{"matcher": "regex", "value": "^A"}]}}),
            ),
            "x.json: at assertions.procedural[0].expected_arguments.code.variants[0].matcher: \
             unknown JSON Schema keyword `matcher`: a `one_of` variant is a JSON Schema fragment \
             like {\"type\": \"string\", \"pattern\": \"^x\"}, and JSON Schema ignores a keyword \
             it does not know, so this variant would match anything",
        ),
        (
            Some(MorganaBench),
            "x.json",
            mb_parameters(json!([{"param": "to", "matcher": {"matcher": "regex", "value": "^a"}}])),
            "x.json: at expectations.assertions[0].parameters[0].matcher.matcher: `matcher` is \
             not MorganaBench's matcher syntax: write {\"match_as\": `equality` | `email` | \
             `missing` | `optional` | `free_text` | `date_time`, ...}",
        ),
        (
            Some(MorganaBench),
            "x.json",
            mb_parameters(
                json!([{"param": "to", "matcher": {"match_az": "email", "value": "a@b.c"}}]),
            ),
            "x.json: at expectations.assertions[0].parameters[0].matcher.match_az: `match_az` \
             (did you mean `match_as`?) is not MorganaBench's matcher syntax: write \
             {\"match_as\": `equality` | `email` | `missing` | `optional` | `free_text` | \
             `date_time`, ...}",
        ),
        (
            Some(PromptKit),
            "x.yaml",
            promptkit_turn(
                "        - type: tool_calls_with_args\n          params:\n            tool_name: search\n            expected_args: {city: {regex: '^L'}}\n",
            ),
            "x.yaml: at spec.turns[0].assertions[0].params.expected_args.city.regex: `regex` is \
             not PromptKit syntax: `expected_args` values are compared as text; a pattern goes \
             in `args_match` (`args_match: {city: \"^...$\"}`)",
        ),
    ]);
}

/// Data that merely shares a word with a matcher stays data.
#[test]
fn data_that_shares_words_with_matchers_loads() {
    for args in [
        json!({"event": {"date": "2026-11-23"}}),
        json!({"contact": {"email": "ana@example.com"}}),
        json!({"price": {"value": 3, "currency": "EUR"}}),
        json!({"filter": {"contains": "shoes", "in": "title"}}),
        json!({"code": {"matcher": "exact", "value": {"regex": "^x"}}}),
    ] {
        let text = mibo_args(args.clone());
        assert!(
            formats::from_text(&text, "x.json", Some(Mibo)).is_ok(),
            "{args}: {:?}",
            formats::from_text(&text, "x.json", Some(Mibo)).err()
        );
    }
}

#[test]
fn broken_literals_are_refused_where_the_file_is_loaded() {
    // Each literal is checked with the validators the macro uses at compile time, when the
    // file is read: never a verdict that blames the agent's answer later.
    let refused = |format: SeedFormat, file: &str, text: &str| -> String {
        error_of(Some(format), text, file).expect("refused")
    };
    let jsonpath = refused(
        McpLab,
        "status.yaml",
        "prompt: Report the status\neval:\n  response_assertions:\n    - type: jsonpath\n      path: $[\n",
    );
    assert!(
        jsonpath.starts_with("status.yaml: at scenario `status`, expect[0]: invalid JSONPath `$[`"),
        "{jsonpath}"
    );
    let expression = refused(
        Mibo,
        "meeting.json",
        &mibo_args(
            json!({"date": {"matcher": "exact", "expression": "DATEADD(TODAY(), 1, 'day')"}}),
        ),
    );
    assert!(
        expression.contains(
            "date: invalid expression `DATEADD(TODAY(), 1, 'day')`: unknown function `DATEADD`"
        ),
        "{expression}"
    );
    let regex = refused(
        PromptKit,
        "support.yaml",
        &promptkit_turn(
            "      - type: content_matches\n        params:\n          pattern: \"(unclosed\"\n",
        ),
    );
    assert!(regex.contains("regex"), "{regex}");
    // The same literal that is well formed loads.
    assert!(
        error_of(
            Some(McpLab),
            "prompt: Report the status\neval:\n  response_assertions:\n    - type: jsonpath\n      path: $.status\n",
            "status.yaml"
        )
        .is_err()
    );
}
