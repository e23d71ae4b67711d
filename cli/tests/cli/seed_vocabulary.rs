//! The seed systems' newer vocabulary through `agent-test eval`, as a process on real files:
//! PromptKit's assertion registry (JMESPath `json_path`, a misconfigured assertion that fails
//! alone), Lamdis `variable_check` operators on a recording that keeps the variable bag, MCPLab
//! `tool_input_assertions` and a scenario without a prompt, and MorganaBench's scalar-only
//! equality. Each file is evaluated on a run that passes it and one that fails it (or is
//! refused), checking the exit code and what the report says.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

/// A fresh temporary directory for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "agent-test-seed-vocabulary-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write_text(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("dir");
    }
    std::fs::write(path, text).expect("write");
}

fn write_json(path: &Path, v: &Value) {
    write_text(path, &serde_json::to_string_pretty(v).expect("json"));
}

/// `agent-test eval --scenarios <scenarios> [--runs <runs>]`.
fn eval(scenarios: &Path, runs: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_agent-test"));
    cmd.args(["eval", "--scenarios"]).arg(scenarios);
    if let Some(runs) = runs {
        cmd.arg("--runs").arg(runs);
    }
    cmd.output().expect("agent-test runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The command exited with `code` and printed every one of `parts` (on standard output or
/// standard error).
#[track_caller]
fn assert_output(o: &Output, code: i32, parts: &[&str]) {
    let (out, err) = (stdout(o), stderr(o));
    assert_eq!(o.status.code(), Some(code), "{out}{err}");
    for part in parts {
        assert!(
            out.contains(part) || err.contains(part),
            "expected {part:?} in the output:\n{out}{err}"
        );
    }
}

/// A recorded run of one turn: the scenario's name, the user's input, the reply and its calls.
fn recording(scenario: &str, input: &str, reply: &str, calls: Value) -> Value {
    json!({
        "scenario": {"name": scenario},
        "transcript": {"turns": [
            {"index": 0, "input": input, "reply": {"text": reply, "calls": calls}}
        ]}
    })
}

// ---------------------------------------------------------------------------------------------
// PromptKit

/// A PromptKit scenario using assertion types beyond the seed's: an ordered tool sequence,
/// forbidden argument values, any of some patterns, and `json_path`, which in PromptKit is
/// **JMESPath** (a filter projection JSONPath would not read).
const PROMPTKIT: &str = r#"apiVersion: promptkit.altairalabs.ai/v1alpha1
kind: Scenario
metadata:
  name: refund
spec:
  turns:
    - role: user
      content: Refund my order ORD-7
      assertions:
        - {type: tool_call_sequence, params: {sequence: [lookup_order, process_refund]}}
        - {type: tools_not_called_with_args, params: {tool_name: process_refund, forbidden_args: {currency: [XXX, ZZZ]}}}
        - {type: content_includes_any, params: {patterns: [refunded, credited]}}
        - {type: json_path, params: {expression: "items[?qty > `1`].sku", expected: [A]}}
"#;

#[test]
fn promptkit_registry_types_pass_and_fail() {
    let dir = temp("promptkit");
    let scenario = dir.join("refund.yaml");
    write_text(&scenario, PROMPTKIT);
    let lookup = json!({"name": "lookup_order", "arguments": {"order_id": "ORD-7"}});
    let refund = |currency: &str| json!({"name": "process_refund", "arguments": {"order_id": "ORD-7", "currency": currency}});
    let good = dir.join("good.json");
    write_json(
        &good,
        &recording(
            "refund",
            "Refund my order ORD-7",
            r#"{"status": "refunded", "items": [{"sku": "A", "qty": 2}, {"sku": "B", "qty": 1}]}"#,
            json!([lookup, refund("EUR")]),
        ),
    );
    let out = eval(&scenario, Some(&good));
    assert_output(
        &out,
        0,
        &[
            "good.json: agent-test: scenario `refund` passed: 4 passed (4 checks)",
            "1 run: 1 passed, 0 failed",
        ],
    );

    let bad = dir.join("bad.json");
    write_json(
        &bad,
        &recording(
            "refund",
            "Refund my order ORD-7",
            r#"{"status": "pending", "items": [{"sku": "A", "qty": 1}, {"sku": "B", "qty": 3}]}"#,
            json!([refund("ZZZ"), lookup]),
        ),
    );
    let out = eval(&scenario, Some(&bad));
    assert_output(
        &out,
        1,
        &[
            "✗ turn 1  tool sequence: lookup_order → process_refund",
            "tools were called out of order: expected lookup_order → process_refund, observed \
             process_refund → lookup_order",
            "✗ turn 1  tool `process_refund` not called with currency: one of /^XXX$/, /^ZZZ$/",
            "tool `process_refund` was called 1 time with matching arguments (expected no call)",
            "✗ turn 1  replies matches /(?:refunded|credited)/",
            "`items[?qty > `1`].sku` gives [\"B\"]: expected [\"A\"], got [\"B\"]",
            "1 run: 0 passed, 1 failed; checks: 0 passed, 4 failed",
        ],
    );
}

/// A PromptKit assertion missing a required parameter is a failed verdict
/// "misconfigured: …"; the file loads and every other assertion is still evaluated.
#[test]
fn a_misconfigured_promptkit_assertion_fails_alone() {
    let dir = temp("promptkit-misconfigured");
    let scenario = dir.join("greeting.yaml");
    write_text(
        &scenario,
        "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata:\n  name: greeting\n\
         spec:\n  turns:\n    - role: user\n      content: Hello\n      assertions:\n\
         \x20       - {type: content_matches}\n\
         \x20       - {type: content_includes, params: {patterns: [hello]}}\n\
         \x20       - {type: tool_call_count, params: {tool: search}}\n",
    );
    let run = dir.join("run.json");
    write_json(
        &run,
        &recording("greeting", "Hello", "Hello! How can I help?", json!([])),
    );
    let out = eval(&scenario, Some(&run));
    assert_output(
        &out,
        1,
        &[
            "✗ turn 1  content_matches (misconfigured: no `pattern`)",
            "misconfigured: no `pattern`",
            "✓ turn 1  reply contains \"hello\"",
            "✗ turn 1  tool_call_count (misconfigured: neither `min` nor `max` is given)",
            "checks: 1 passed, 2 failed",
        ],
    );
    assert!(!stdout(&out).contains("unreadable"), "{}", stdout(&out));

    // Fixed, the same file passes on the same run.
    write_text(
        &scenario,
        "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata:\n  name: greeting\n\
         spec:\n  turns:\n    - role: user\n      content: Hello\n      assertions:\n\
         \x20       - {type: content_matches, params: {pattern: '(?i)how can i help'}}\n\
         \x20       - {type: content_includes, params: {patterns: [hello]}}\n\
         \x20       - {type: tool_call_count, params: {tool: search, max: 0}}\n",
    );
    assert_output(
        &eval(&scenario, Some(&run)),
        0,
        &["scenario `greeting` passed: 3 passed (3 checks)"],
    );
}

// ---------------------------------------------------------------------------------------------
// Lamdis

/// A Lamdis test whose request step saves an account as `var.acct` (and `steps.fetch.output`),
/// then checks it with the engine's operators; one check's path starts with `$.`.
const LAMDIS: &str = r#"{"id": "account-status", "name": "Account status", "steps": [
  {"type": "request", "id": "fetch", "requestId": "accounts.get", "saveAs": "acct"},
  {"type": "message", "role": "user", "content": "Is my account active?"},
  {"type": "assistant_check", "mode": "variable_check", "variablePath": "bag.var.acct.status", "operator": "eq", "rightValue": "active"},
  {"type": "assistant_check", "mode": "variable_check", "variablePath": "bag.var.acct.balance", "operator": "gte", "rightValue": 100},
  {"type": "assistant_check", "mode": "variable_check", "variablePath": "$.var.acct.tags", "operator": "contains", "rightValue": "vip"},
  {"type": "assistant_check", "mode": "variable_check", "variablePath": "bag.steps.fetch.output.closedAt", "operator": "not_exists"},
  {"type": "assistant_check", "mode": "variable_check", "variablePath": "bag.var.acct.email", "operator": "regex", "rightValue": "@example\\.com$"},
  {"type": "assistant_check", "mode": "includes", "scope": "last", "includes": "active, account"}
]}"#;

/// A recording of [`LAMDIS`]'s run that kept the variable bag, or none.
fn lamdis_recording(account: Option<Value>) -> Value {
    let mut run = recording(
        "Account status",
        "Is my account active?",
        "Yes, your account is active.",
        json!([]),
    );
    if let Some(account) = account {
        run["transcript"]["variables"] = json!([
            {"path": "var.acct", "value": account},
            {"path": "steps.fetch.output", "value": account}
        ]);
    }
    run
}

#[test]
fn lamdis_variable_checks_are_evaluated_on_a_recording_that_keeps_the_bag() {
    let dir = temp("lamdis");
    let scenario = dir.join("account.json");
    write_text(&scenario, LAMDIS);

    let good = dir.join("good.json");
    write_json(
        &good,
        &lamdis_recording(Some(json!({
            "status": "active", "balance": 5000, "tags": ["vip", "eu"], "email": "ana@example.com"
        }))),
    );
    assert_output(
        &eval(&scenario, Some(&good)),
        0,
        &["scenario `Account status` passed: 7 passed (7 checks)"],
    );

    let bad = dir.join("bad.json");
    write_json(
        &bad,
        &lamdis_recording(Some(json!({
            "status": "suspended", "balance": 20, "tags": ["eu"], "closedAt": "2026-01-02",
            "email": "ana@example.org"
        }))),
    );
    assert_output(
        &eval(&scenario, Some(&bad)),
        1,
        &[
            "bag.var.acct.status: expected \"active\", got \"suspended\"",
            "bag.var.acct.balance: expected a value that is at least 100, got 20",
            "$.var.acct.tags: expected a value that contains \"vip\", got [\"eu\"]",
            "bag.steps.fetch.output.closedAt: expected a value that does not exist, got \
             \"2026-01-02\"",
            "✗ conversation  bag.var.acct.email matches",
            "checks: 2 passed, 5 failed",
        ],
    );

    // A recording without the bag cannot judge them: "not measured", never a pass.
    let bare = dir.join("bare.json");
    write_json(&bare, &lamdis_recording(None));
    assert_output(
        &eval(&scenario, Some(&bare)),
        1,
        &[
            "error: not measured: the recording keeps no variables",
            "checks: 2 passed, 0 failed, 5 could not be evaluated",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// MCPLab

/// Two MCPLab scenarios: one with a prompt and `tool_input_assertions` of every kind, one
/// without a prompt, evaluated on a recording alone.
const MCPLAB: &str = r#"scenarios:
  - name: tag-search
    prompt: Find the tags of part TM5-BP2
    eval:
      tool_input_assertions:
        - {type: contains, tool: search_tags, value: tm5-bp2}
        - {type: regex, tool: search_tags, pattern: '"limit":\d+'}
        - {type: jsonpath, tool: search_tags, path: $.query, equals: TM5-BP2}
  - name: recorded
    eval:
      tool_constraints:
        required_tools: [lookup]
      response_assertions:
        - {type: contains, value: delivered}
"#;

#[test]
fn mcplab_tool_inputs_and_a_scenario_without_a_prompt() {
    let dir = temp("mcplab");
    let scenario = dir.join("suite.yaml");
    write_text(&scenario, MCPLAB);
    let runs = |name: &str, query: Value, reply: &str, lookup: bool| {
        let runs = dir.join(name);
        write_json(
            &runs.join("tags.json"),
            &recording(
                "tag-search",
                "Find the tags of part TM5-BP2",
                "Found 3 tags.",
                json!([{"name": "search_tags", "arguments": query}]),
            ),
        );
        let calls = if lookup {
            json!([{"name": "lookup", "arguments": {"id": 7}}])
        } else {
            json!([])
        };
        write_json(
            &runs.join("parcel.json"),
            &recording("recorded", "Where is my parcel?", reply, calls),
        );
        runs
    };

    let good = runs(
        "good",
        json!({"query": "TM5-BP2", "limit": 5}),
        "It was delivered yesterday.",
        true,
    );
    assert_output(
        &eval(&scenario, Some(&good)),
        0,
        &[
            "parcel.json: agent-test: scenario `recorded` passed: 2 passed (2 checks)",
            "tags.json: agent-test: scenario `tag-search` passed: 3 passed (3 checks)",
            "2 runs: 2 passed, 0 failed",
        ],
    );

    let bad = runs("bad", json!({"query": "TM5-XX"}), "I do not know.", false);
    assert_output(
        &eval(&scenario, Some(&bad)),
        1,
        &[
            "✗ conversation  Tool input · search_tags contains tm5-bp2",
            "✗ conversation  Tool input · search_tags matches regex \"limit\":\\d+",
            "$.query: selects [\"TM5-XX\"], none matching (expected \"TM5-BP2\", got \"TM5-XX\")",
            "required tool not called: lookup",
            "reply does not contain \"delivered\"",
            "2 runs: 0 passed, 2 failed; checks: 0 passed, 5 failed",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// MorganaBench

/// A MorganaBench example whose `to` parameter is matched for equality with `value`.
fn morgana_example(value: Value) -> String {
    json!({
        "inputs": {"messages": [{"role": "user", "content": "Email Ana the agenda"}]},
        "expectations": {"assertions": [{"assert_that": "tool_called", "tool": "send_email",
            "parameters": [{"param": "to", "matcher": {"match_as": "equality", "value": value}}]}]},
        "outputs": {"response": "Sent.", "trace": [
            {"event": "tool_call", "id": "1", "tool": "send_email", "params": {"to": "ana@example.com"}}]}
    })
    .to_string()
}

#[test]
fn morganabench_equality_takes_scalars_only() {
    let dir = temp("morganabench");
    let good = dir.join("good.json");
    write_text(&good, &morgana_example(json!("ana@example.com")));
    assert_output(&eval(&good, None), 0, &["1 run: 1 passed, 0 failed"]);
    let wrong = dir.join("wrong.json");
    write_text(&wrong, &morgana_example(json!("bob@example.com")));
    assert_output(
        &eval(&wrong, None),
        1,
        &["to: expected \"bob@example.com\", got \"ana@example.com\""],
    );

    // A list is not an equality value: the file is refused, naming the place (exit 2).
    let list = dir.join("list.json");
    write_text(&list, &morgana_example(json!(["ana@example.com"])));
    let out = eval(&list, None);
    assert_output(
        &out,
        2,
        &[
            "list.json: at expectations.assertions[0].parameters[0].matcher.value: expected a \
             string, number or boolean (an `equality` value is `str | int | float | bool`), got \
             an array ([\"ana@example.com\"])",
        ],
    );
    // In a JSON lines suite it is that line's error; the other lines are still evaluated.
    let suite = dir.join("suite.jsonl");
    write_text(
        &suite,
        &format!(
            "{}\n{}\n",
            morgana_example(json!({"address": "ana@example.com"})),
            morgana_example(json!("ana@example.com"))
        ),
    );
    assert_output(
        &eval(&suite, None),
        2,
        &[
            "suite.jsonl: at line 1: expectations.assertions[0].parameters[0].matcher.value: \
             expected a string, number or boolean",
            "got an object",
            "1 passed, 0 failed, 1 unreadable",
        ],
    );
}
