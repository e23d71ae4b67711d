//! MCPLab (seed 001, semantics.md §3): every example of the assertion guide, evaluated
//! passively on a run that passes it and one that fails it; then a table of the format's
//! semantics; then malformed files.
//!
//! The seed shows each example as an `eval:` block alone. A scenario needs its `prompt`, so
//! each is wrapped into the smallest complete scenario: a `prompt:` line, then the `eval:`
//! block exactly as written.

use agent_test_runtime::formats::{ImportedCase, SeedFormat};
use agent_test_runtime::model::{Call, Reply, ToolErrorKind, Transcript};
use serde_json::json;

use crate::support::*;

fn mcplab(text: &str) -> ImportedCase {
    case(SeedFormat::McpLab, text, "scenario.yaml")
}

/// A one-turn run: the final answer and the tools called, in order.
fn run(answer: &str, tools: &[&str]) -> Transcript {
    let mut reply = Reply::text(answer);
    for t in tools {
        reply = reply.call(Call::tool(*t, json!({})));
    }
    one("prompt", reply)
}

// ---------------------------------------------------------------------------------------------
// Tool assertions

const REQUIRED_AND_FORBIDDEN: &str = r#"prompt: Close my account
eval:
  tool_constraints:
    required_tools: [lookup_account, verify_identity]
    forbidden_tools: [delete_account]
"#;

#[test]
fn required_and_forbidden_tools() {
    let case = mcplab(REQUIRED_AND_FORBIDDEN);
    // Any order, other tools allowed.
    let good = run(
        "Verified.",
        &["verify_identity", "search", "lookup_account"],
    );
    let report = case.scenario.evaluate(&good);
    assert_verdicts(
        &report,
        &[
            ("tools called: lookup_account, verify_identity", Pass),
            ("tools not called: delete_account", Pass),
        ],
    );
    let bad = run("Deleted.", &["lookup_account", "delete_account"]);
    let report = case.scenario.evaluate(&bad);
    assert_verdicts(
        &report,
        &[("tools called", Fail), ("tools not called", Fail)],
    );
    assert_reason(
        &report,
        "tools called",
        Fail,
        &["required tool not called: verify_identity"],
    );
    assert_reason(
        &report,
        "tools not called",
        Fail,
        &["forbidden tool called: delete_account"],
    );
}

const TOOL_SEQUENCE: &str = r#"prompt: Refund my last order
eval:
  tool_sequence:
    - lookup_account
    - verify_identity
    - process_refund
"#;

#[test]
fn ordered_tool_sequence() {
    let case = mcplab(TOOL_SEQUENCE);
    // Other tools may appear between the listed ones.
    let good = run(
        "Refunded.",
        &[
            "lookup_account",
            "get_orders",
            "verify_identity",
            "process_refund",
        ],
    );
    assert_passes(&case.scenario.evaluate(&good));
    let bad = run(
        "Refunded.",
        &["verify_identity", "lookup_account", "process_refund"],
    );
    let report = case.scenario.evaluate(&bad);
    assert_verdicts(&report, &[("tool sequence", Fail)]);
    assert_reason(
        &report,
        "tool sequence",
        Fail,
        &[
            "tools were called out of order",
            "observed verify_identity → lookup_account → process_refund",
            "step 2: `verify_identity` was called at conversation position 0, but not after `lookup_account`",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Response assertions

const CONTAINS: &str = r#"prompt: Refund order 7
eval:
  response_assertions:
    - type: contains
      value: refund processed
"#;

const NOT_CONTAINS: &str = r#"prompt: Refund order 7
eval:
  response_assertions:
    - type: not_contains
      value: internal error
"#;

const STARTS_WITH: &str = r#"prompt: Greet me
eval:
  response_assertions:
    - type: starts_with
      value: hello
"#;

const ENDS_WITH: &str = r#"prompt: Say goodbye
eval:
  response_assertions:
    - type: ends_with
      value: thank you
"#;

const EQUALS: &str = r#"prompt: Answer with one word
eval:
  response_assertions:
    - type: equals
      value: success
"#;

#[test]
fn literal_response_assertions() {
    // (scenario, an answer that passes, one that fails, the label, the failure's reason)
    let rows = [
        (
            CONTAINS,
            "Your Refund Processed today.",
            "Your refund is pending.",
            r#"reply contains "refund processed""#,
            r#"reply does not contain "refund processed""#,
        ),
        (
            NOT_CONTAINS,
            "All good.",
            "Sorry, an Internal Error occurred.",
            r#"reply does not contain "internal error""#,
            "Internal Error",
        ),
        (
            STARTS_WITH,
            "Hello! How can I help?",
            "Hi, hello!",
            r#"reply starts with "hello""#,
            r#"does not start with "hello""#,
        ),
        (
            ENDS_WITH,
            "Goodbye and THANK YOU",
            "Thank you, goodbye",
            r#"reply ends with "thank you""#,
            r#"does not end with "thank you""#,
        ),
        (
            EQUALS,
            "Success",
            "Success!",
            r#"reply equals "success""#,
            r#"does not equal "success""#,
        ),
    ];
    for (text, good, bad, label, why) in rows {
        let case = mcplab(text);
        let report = case.scenario.evaluate(&run(good, &[]));
        assert_verdicts(&report, &[(label, Pass)]);
        let report = case.scenario.evaluate(&run(bad, &[]));
        assert_verdicts(&report, &[(label, Fail)]);
        assert_reason(&report, label, Fail, &[why]);
    }
}

/// The seed's regex example as written: in a double-quoted YAML scalar `\s` is an unknown
/// escape, so the document is not valid YAML (semantics.md: the seed contradicts YAML itself).
/// The loader says so, with the line and column.
const REGEX_AS_WRITTEN: &str = r#"prompt: Refund order 7
eval:
  response_assertions:
    - type: regex
      pattern: "refund\s+(processed|completed)"
"#;

/// The same assertion in single quotes, where a backslash is literal.
const REGEX_SINGLE_QUOTED: &str = r#"prompt: Refund order 7
eval:
  response_assertions:
    - type: regex
      pattern: 'refund\s+(processed|completed)'
"#;

#[test]
fn regex_as_written_is_invalid_yaml() {
    assert_eq!(
        load_error(SeedFormat::McpLab, REGEX_AS_WRITTEN, "scenario.yaml"),
        "scenario.yaml: at line 5, column 16: not valid YAML: while parsing a quoted scalar, \
         found unknown escape character"
    );
}

#[test]
fn regex_single_quoted() {
    let case = mcplab(REGEX_SINGLE_QUOTED);
    // Always case-insensitive (JavaScript's `i` flag).
    for good in ["Refund  processed.", "REFUND\tCOMPLETED"] {
        assert_passes(&case.scenario.evaluate(&run(good, &[])));
    }
    let report = case.scenario.evaluate(&run("refund was processed", &[]));
    assert_verdicts(&report, &[("refund", Fail)]);
    assert_reason(&report, "refund", Fail, &["does not match"]);
}

const JSONPATH: &str = r#"prompt: Report the status as JSON
eval:
  response_assertions:
    - type: jsonpath
      path: $.status
    - type: jsonpath
      path: $.status
      equals: success
"#;

const JSONPATH_EXISTS: &str = r#"prompt: Create the record and answer in JSON
eval:
  response_assertions:
    - type: jsonpath_exists
      path: $.data.id
"#;

const JSONPATH_NOT_EXISTS: &str = r#"prompt: Answer in JSON
eval:
  response_assertions:
    - type: jsonpath_not_exists
      path: $.error
"#;

#[test]
fn jsonpath_exists_or_equals() {
    let case = mcplab(JSONPATH);
    let report = case
        .scenario
        .evaluate(&run(r#"{"status": "success"}"#, &[]));
    assert_verdicts(&report, &[("$.status", Pass), ("$.status", Pass)]);
    let report = case.scenario.evaluate(&run(r#"{"status": "failed"}"#, &[]));
    assert_verdicts(&report, &[("$.status", Pass), ("$.status", Fail)]);
    assert!(
        explain(&report.verdicts[1]).contains("\"failed\""),
        "{}",
        table(&report)
    );
    let report = case.scenario.evaluate(&run(r#"{"state": "success"}"#, &[]));
    assert_verdicts(&report, &[("$.status", Fail), ("$.status", Fail)]);
}

#[test]
fn jsonpath_exists_and_not_exists() {
    let exists = mcplab(JSONPATH_EXISTS);
    assert_passes(
        &exists
            .scenario
            .evaluate(&run(r#"{"data": {"id": "rec-1"}}"#, &[])),
    );
    let report = exists
        .scenario
        .evaluate(&run(r#"{"data": {"name": "x"}}"#, &[]));
    assert_verdicts(&report, &[("$.data.id", Fail)]);

    let not_exists = mcplab(JSONPATH_NOT_EXISTS);
    assert_passes(&not_exists.scenario.evaluate(&run(r#"{"ok": true}"#, &[])));
    let report = not_exists
        .scenario
        .evaluate(&run(r#"{"error": "boom"}"#, &[]));
    assert_verdicts(&report, &[("$.error", Fail)]);
    assert_reason(&report, "$.error", Fail, &["\"boom\""]);
}

#[test]
fn jsonpath_assertions_fail_on_an_answer_that_is_not_json() {
    for text in [JSONPATH, JSONPATH_EXISTS, JSONPATH_NOT_EXISTS] {
        let case = mcplab(text);
        let report = case.scenario.evaluate(&run("The status is success.", &[]));
        assert_fails(&report);
        for v in &report.verdicts {
            assert_eq!(v.status, Fail, "{}", table(&report));
            assert!(v.reason.contains("invalid JSON"), "{}", table(&report));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Agent checks (judge): not graded without a judge

const AGENT_ASSERTIONS: &str = r#"prompt: When did the incident start and end?
eval:
  agent_assertions:
    - label: logical_time_range
      prompt: Confirm the final answer includes an earliest and latest timestamp, and that both values are present and logically ordered.
"#;

const AGENT_ASSERTIONS_WITH_CONTEXT: &str = r#"prompt: When did the incident start and end?
eval:
  agent_context:
    include_prompt: true          # sends scenario prompt to the Agent Judge so that it can be included in the evaluation
    include_tool_sequence: true   # sends called tool names as Agent Judge so that it can be included in the evaluation

  agent_assertions:
    - label: addresses_question
      prompt: Confirm the answer directly addresses the original question.
    - label: logical_time_range
      prompt: Confirm the final answer includes an earliest and latest timestamp, and that both values are present and logically ordered.
"#;

/// The judge options of a check, as serialised.
fn judge_options(case: &ImportedCase, i: usize) -> serde_json::Value {
    serde_json::to_value(&case.scenario.expect[i].check).unwrap()
}

#[test]
fn agent_assertions_are_errors_without_a_judge() {
    let case = mcplab(AGENT_ASSERTIONS);
    // By default the judge sees the final answer only.
    let options = judge_options(&case, 0);
    assert_eq!(options["include_prompt"], json!(false), "{options}");
    assert_eq!(options.get("include_tool_sequence"), None, "{options}");
    for answer in ["From 09:12 to 09:47 UTC.", "No idea."] {
        let report = case.scenario.evaluate(&run(answer, &["search_logs"]));
        assert_verdicts(&report, &[("logical_time_range", Error)]);
        assert_not_graded(&report, &["logical_time_range"]);
    }

    let case = mcplab(AGENT_ASSERTIONS_WITH_CONTEXT);
    for i in 0..2 {
        let options = judge_options(&case, i);
        assert_eq!(
            options.get("include_prompt"),
            None,
            "default true: {options}"
        );
        assert_eq!(options["include_tool_sequence"], json!(true), "{options}");
    }
    let report = case
        .scenario
        .evaluate(&run("From 09:12 to 09:47 UTC.", &["search_logs"]));
    assert_verdicts(
        &report,
        &[("addresses_question", Error), ("logical_time_range", Error)],
    );
    assert_not_graded(&report, &["addresses_question", "logical_time_range"]);
}

#[test]
fn agent_assertions_do_not_stop_the_other_checks() {
    let text = r#"prompt: Refund order 7
eval:
  tool_constraints:
    required_tools: [process_refund]
  response_assertions:
    - type: contains
      value: refund processed
  agent_assertions:
    - label: polite
      prompt: Confirm the answer is polite.
"#;
    let case = mcplab(text);
    let report = case
        .scenario
        .evaluate(&run("Refund processed.", &["process_refund"]));
    assert_verdicts(
        &report,
        &[
            ("tools called", Pass),
            ("refund processed", Pass),
            ("polite", Error),
        ],
    );
    let report = case.scenario.evaluate(&run("Done.", &[]));
    assert_verdicts(
        &report,
        &[
            ("tools called", Fail),
            ("refund processed", Fail),
            ("polite", Error),
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Format semantics (semantics.md §3), table-driven

/// A scenario with these response assertions (YAML list items, indented by 4).
fn responses(items: &str) -> String {
    format!("prompt: p\neval:\n  response_assertions:\n{items}")
}

#[test]
fn mcplab_semantics() {
    let rows = vec![
        Row {
            what: "literals are case-insensitive",
            case: responses(
                "    - {type: contains, value: REFUND processed}\n    - {type: not_contains, value: Internal Error}\n",
            ),
            run: run("refund PROCESSED; internal error", &[]),
            expect: vec![("REFUND processed", Pass), ("Internal Error", Fail)],
        },
        Row {
            what: "equals is not trimmed: a trailing newline breaks it",
            case: responses("    - {type: equals, value: success}\n"),
            run: run("SUCCESS\n", &[]),
            expect: vec![("success", Fail)],
        },
        Row {
            what: "starts_with and ends_with are not trimmed either",
            case: responses(
                "    - {type: starts_with, value: hello}\n    - {type: ends_with, value: bye}\n",
            ),
            run: run(" Hello and BYE ", &[]),
            expect: vec![("hello", Fail), ("bye", Fail)],
        },
        Row {
            what: "a number literal is compared as text",
            case: responses("    - {type: equals, value: 42}\n"),
            run: run("42", &[]),
            expect: vec![("42", Pass)],
        },
        Row {
            what: "regex is always case-insensitive",
            case: responses("    - {type: regex, pattern: 'ORD-\\d+ REFUNDED'}\n"),
            run: run("ord-991 refunded", &[]),
            expect: vec![("ORD-", Pass)],
        },
        Row {
            what: "a leading (?i) is accepted (and redundant)",
            case: responses("    - {type: regex, pattern: '(?i)^refund'}\n"),
            run: run("REFUND done", &[]),
            expect: vec![("refund", Pass)],
        },
        Row {
            what: "regex searches, unanchored",
            case: responses("    - {type: regex, pattern: 'processed'}\n"),
            run: run("Your refund was processed today", &[]),
            expect: vec![("processed", Pass)],
        },
        Row {
            what: "jsonpath equals is strict: the string \"42\" is not the number 42",
            case: responses(
                "    - {type: jsonpath, path: $.n, equals: 42}\n    - {type: jsonpath, path: $.s, equals: 42}\n    - {type: jsonpath, path: $.s, equals: '42'}\n",
            ),
            run: run(r#"{"n": 42, "s": "42"}"#, &[]),
            expect: vec![("$.n", Pass), ("$.s", Fail), ("$.s", Pass)],
        },
        Row {
            what: "jsonpath equals: some selected value equals it",
            case: responses("    - {type: jsonpath, path: '$.items[*].id', equals: 2}\n"),
            run: run(r#"{"items": [{"id": 1}, {"id": 2}]}"#, &[]),
            expect: vec![("$.items[*].id", Pass)],
        },
        Row {
            what: "jsonpath without equals: the path must select something",
            case: responses(
                "    - {type: jsonpath, path: '$.items[*].id'}\n    - {type: jsonpath_exists, path: $.missing}\n",
            ),
            run: run(r#"{"items": []}"#, &[]),
            expect: vec![("$.items[*].id", Fail), ("$.missing", Fail)],
        },
        Row {
            what: "a null value exists",
            case: responses(
                "    - {type: jsonpath_exists, path: $.error}\n    - {type: jsonpath_not_exists, path: $.error}\n",
            ),
            run: run(r#"{"error": null}"#, &[]),
            expect: vec![("$.error", Pass), ("$.error", Fail)],
        },
        Row {
            what: "not JSON fails every JSONPath assertion, even not_exists",
            case: responses(
                "    - {type: jsonpath, path: $.a}\n    - {type: jsonpath_exists, path: $.a}\n    - {type: jsonpath_not_exists, path: $.a}\n",
            ),
            run: run("Sure! {\"a\": 1}", &[]),
            expect: vec![("$.a", Fail), ("$.a", Fail), ("$.a", Fail)],
        },
        Row {
            what: "tool_sequence: a repeated name needs a call of its own",
            case: "prompt: p\neval:\n  tool_sequence: [search, search, summarize]\n".into(),
            run: run("", &["search", "summarize", "search"]),
            expect: vec![("tool sequence", Fail)],
        },
        Row {
            what: "tool_sequence: repeated names with calls in between",
            case: "prompt: p\neval:\n  tool_sequence: [search, search, summarize]\n".into(),
            run: run("", &["search", "fetch", "search", "fetch", "summarize"]),
            expect: vec![("tool sequence", Pass)],
        },
        Row {
            what: "tool_sequence: greedy, the first matching call is taken",
            case: "prompt: p\neval:\n  tool_sequence: [a, b, a]\n".into(),
            run: run("", &["a", "a", "b"]),
            expect: vec![("tool sequence", Fail)],
        },
        Row {
            what: "required_tools: a tool called several times counts once",
            case: "prompt: p\neval:\n  tool_constraints:\n    required_tools: [a, b]\n".into(),
            run: run("", &["b", "a", "a"]),
            expect: vec![("tools called", Pass)],
        },
        Row {
            what: "tool constraints see calls that returned an error too",
            case: "prompt: p\neval:\n  tool_constraints:\n    required_tools: [a]\n    forbidden_tools: [b]\n"
                .into(),
            run: one(
                "p",
                Reply::text("")
                    .call(Call::tool("a", json!({})).failed(json!("timeout")))
                    .call(Call::tool("b", json!({})).failed(json!("denied"))),
            ),
            expect: vec![("tools called", Pass), ("tools not called", Fail)],
        },
        Row {
            what: "an empty eval has no checks",
            case: "prompt: p\neval: {}\n".into(),
            run: run("anything", &["x"]),
            expect: vec![],
        },
    ];
    run_table(SeedFormat::McpLab, "scenario.yaml", rows);
}

#[test]
fn one_violation_per_missing_or_forbidden_tool() {
    let case = mcplab(
        "prompt: p\neval:\n  tool_constraints:\n    required_tools: [a, b, c]\n    forbidden_tools: [drop, wipe, purge]\n",
    );
    let report = case
        .scenario
        .evaluate(&run("", &["a", "drop", "wipe", "drop"]));
    let required = verdict(&report, "tools called");
    assert_eq!(required.reason, "required tool not called: b, c");
    let messages: Vec<&str> = required
        .details
        .violations
        .iter()
        .map(|v| v.message.as_str())
        .collect();
    assert_eq!(messages, ["`b` was not called", "`c` was not called"]);
    // The reason names each forbidden tool once, however often it was called. (The violations
    // list each offending *call* with its position, as the native `forbidden_tools` does, so
    // `drop` called twice has two; semantics.md counts one failure per tool: the reason.)
    let forbidden = verdict(&report, "tools not called");
    assert_eq!(forbidden.reason, "forbidden tool called: drop, wipe");
    let mut tools: Vec<&str> = forbidden
        .details
        .violations
        .iter()
        .filter_map(|v| v.evidence.as_ref()?.get("tool")?.as_str())
        .collect();
    tools.sort_unstable();
    tools.dedup();
    assert_eq!(tools, ["drop", "wipe"]);
}

#[test]
fn tool_sequence_tells_never_called_from_out_of_order() {
    let case = mcplab("prompt: p\neval:\n  tool_sequence: [a, b, c]\n");
    let report = case.scenario.evaluate(&run("", &["b", "a"]));
    assert_reason(
        &report,
        "tool sequence",
        Fail,
        &[
            "tools were called out of order and some never",
            "step 2: `b` was called at conversation position 0, but not after `a`",
            "step 3: `c` was never called",
        ],
    );
    let kinds: Vec<&str> = report.verdicts[0]
        .details
        .violations
        .iter()
        .map(|v| v.kind.as_str())
        .collect();
    assert_eq!(kinds, ["out_of_order", "missing_tool"]);
}

#[test]
fn an_invalid_regex_never_passes() {
    // MCPLab fails the check with an "invalid regex" reason; here an invalid pattern is
    // refused where the file is read, naming the file, the check and the problem (a broken
    // literal is the suite's mistake, never a verdict on the agent).
    let err = load_error(
        SeedFormat::McpLab,
        &responses("    - {type: regex, pattern: 'refund(('}\n"),
        "refund.yaml",
    );
    assert!(
        err.starts_with("refund.yaml: at scenario `refund`, expect[0]: invalid regex `refund((`"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Malformed files

#[test]
fn malformed_scenarios_name_the_file_and_the_path() {
    let err = |text: &str| load_error(SeedFormat::McpLab, text, "suite/refund.yaml");
    // Unknown fields.
    assert_eq!(
        err(
            "prompt: p\neval:\n  response_assertions:\n    - type: contains\n      value: x\n      ignore_case: true\n"
        ),
        "suite/refund.yaml: at eval.response_assertions[0].ignore_case: unknown field `ignore_case`, \
         expected one of `type`, `value`"
    );
    assert_eq!(
        err("prompt: p\neval:\n  tool_constraints:\n    allowed_tools: [a]\n"),
        "suite/refund.yaml: at eval.tool_constraints.allowed_tools: unknown field `allowed_tools`, \
         expected one of `required_tools`, `forbidden_tools`"
    );
    assert_eq!(
        err("scenarios:\n  - prompt: a\n  - prompt: b\n    evals: {}\n"),
        "suite/refund.yaml: at scenarios[1].evals: unknown field `evals` (did you mean `eval`?), \
         expected one of `id`, `name`, `description`, `prompt`, `eval`"
    );
    // Wrong types.
    assert_eq!(
        err("prompt: p\neval:\n  tool_sequence: search\n"),
        "suite/refund.yaml: at eval.tool_sequence: expected an array, got a string (\"search\")"
    );
    assert_eq!(
        err("prompt: p\neval:\n  agent_context:\n    include_prompt: maybe\n"),
        "suite/refund.yaml: at eval.agent_context.include_prompt: expected true or false, got a \
         string (\"maybe\")"
    );
    assert_eq!(
        err("prompt: p\neval:\n  tool_constraints:\n    required_tools: [a, [b]]\n"),
        "suite/refund.yaml: at eval.tool_constraints.required_tools[1]: expected a string, got an \
         array ([\"b\"])"
    );
    assert_eq!(
        err("prompt: [p]\n"),
        "suite/refund.yaml: at prompt: expected a string, got an array ([\"p\"])"
    );
}

#[test]
fn yaml_1_1_booleans_are_text() {
    // MCPLab's and PromptKit's YAML parsers follow YAML 1.2: only `true`/`false` are booleans,
    // so `yes`, `no`, `on`, `off`, `y`, `n` are text (a value to find, a tool's name).
    let case = mcplab(
        "prompt: p\neval:\n  tool_sequence: [y, n]\n  response_assertions:\n    - {type: equals, value: no}\n    - {type: contains, value: On}\n",
    );
    let report = case.scenario.evaluate(&run("No", &["y", "n"]));
    assert_verdicts(
        &report,
        &[("y → n", Pass), ("\"no\"", Pass), ("\"On\"", Fail)],
    );
}

// ---------------------------------------------------------------------------------------------
// Tool input assertions (`packages/core/src/eval.ts`): some call of the tool whose input
// matches. `contains` reads the arguments as compact JSON, case-insensitively; `regex` reads
// the same JSON, case-sensitively (MCPLab gives it no flag); `jsonpath` selects in the
// arguments, `equals` comparing strictly.

/// A scenario with these tool input assertions (YAML list items, indented by 4).
fn tool_inputs(items: &str) -> String {
    format!("prompt: p\neval:\n  tool_input_assertions:\n{items}")
}

fn call_run(calls: Vec<Call>) -> Transcript {
    let mut reply = Reply::text("done");
    for c in calls {
        reply = reply.call(c);
    }
    one("prompt", reply)
}

#[test]
fn tool_input_assertions_in_all_kinds() {
    let search = |q: serde_json::Value| Call::tool("search_tags", json!({"query": q, "limit": 5}));
    let rows = vec![
        Row {
            what: "contains: the serialised input, case-insensitive",
            case: tool_inputs(
                "    - type: contains\n      tool: search_tags\n      value: tm5-bp2\n",
            ),
            run: call_run(vec![search(json!("TM5-BP2"))]),
            expect: vec![("Tool input · search_tags contains tm5-bp2", Pass)],
        },
        Row {
            what: "contains: keys are part of the serialised input",
            case: tool_inputs(
                "    - type: contains\n      tool: search_tags\n      value: LIMIT\n",
            ),
            run: call_run(vec![search(json!("x"))]),
            expect: vec![("contains LIMIT", Pass)],
        },
        Row {
            what: "contains: another tool's input does not count",
            case: tool_inputs("    - type: contains\n      tool: search_tags\n      value: TM5\n"),
            run: call_run(vec![Call::tool("fetch", json!({"q": "TM5"}))]),
            expect: vec![("contains TM5", Fail)],
        },
        Row {
            what: "regex: on the serialised input, case-sensitive",
            case: tool_inputs(
                "    - type: regex\n      tool: search_tags\n      pattern: '\"query\":\"TM5-[A-Z]+\\d'\n    - type: regex\n      tool: search_tags\n      pattern: tm5\n",
            ),
            run: call_run(vec![search(json!("TM5-BP2"))]),
            expect: vec![("matches regex", Pass), ("matches regex tm5", Fail)],
        },
        Row {
            what: "regex: some call of the tool must match",
            case: tool_inputs("    - type: regex\n      tool: search_tags\n      pattern: 'BP2'\n"),
            run: call_run(vec![search(json!("AAA")), search(json!("TM5-BP2"))]),
            expect: vec![("matches regex BP2", Pass)],
        },
        Row {
            what: "jsonpath: exists, and equals strictly",
            case: tool_inputs(
                "    - type: jsonpath\n      tool: search_tags\n      path: $.query\n    - type: jsonpath\n      tool: search_tags\n      path: $.query\n      equals: TM5-BP2\n    - type: jsonpath\n      tool: search_tags\n      path: $.limit\n      equals: '5'\n    - type: jsonpath\n      tool: search_tags\n      path: $.missing\n",
            ),
            run: call_run(vec![search(json!("TM5-BP2"))]),
            expect: vec![
                ("JSONPath $.query exists", Pass),
                ("JSONPath $.query == TM5-BP2", Pass),
                ("JSONPath $.limit == 5", Fail),
                ("JSONPath $.missing exists", Fail),
            ],
        },
        Row {
            what: "a tool never called fails every kind",
            case: tool_inputs(
                "    - {type: contains, tool: t, value: x}\n    - {type: regex, tool: t, pattern: x}\n    - {type: jsonpath, tool: t, path: $.x}\n",
            ),
            run: call_run(vec![]),
            expect: vec![
                ("contains x", Fail),
                ("regex x", Fail),
                ("$.x exists", Fail),
            ],
        },
    ];
    run_table(SeedFormat::McpLab, "scenario.yaml", rows);
}

#[test]
fn tool_input_assertion_reasons_and_errors() {
    let case = mcplab(&tool_inputs(
        "    - type: jsonpath\n      tool: search_tags\n      path: $.query\n      equals: TM5-BP2\n",
    ));
    let report = case.scenario.evaluate(&call_run(vec![
        Call::tool("search_tags", json!({"query": "TM5-XX"})),
        Call::tool("fetch", json!({})),
    ]));
    assert_reason(
        &report,
        "$.query == TM5-BP2",
        Fail,
        &[
            "tool `search_tags` was called 1 time, but no call matched",
            r#"$.query: selects ["TM5-XX"], none matching (expected "TM5-BP2", got "TM5-XX")"#,
        ],
    );
    let err = |text: &str| load_error(SeedFormat::McpLab, text, "s.yaml");
    // An invalid regex never passes (MCPLab fails it as "invalid regex"): it is refused where
    // the file is read, naming it.
    let invalid = err(&tool_inputs(
        "    - type: regex\n      tool: fetch\n      pattern: '(unclosed'\n",
    ));
    assert!(
        invalid.starts_with("s.yaml: at scenario `s`, expect[0]: invalid regex `(unclosed`"),
        "{invalid}"
    );
    assert_eq!(
        err(&tool_inputs(
            "    - {type: jsonpath, tool: t, path: $.a, equals: [1]}\n"
        )),
        "s.yaml: at eval.tool_input_assertions[0].equals: expected a string, number or boolean, \
         got an array ([1])"
    );
    assert_eq!(
        err(&tool_inputs(
            "    - {type: contains, tool: t, pattern: x}\n"
        )),
        "s.yaml: at eval.tool_input_assertions[0].pattern: unknown field `pattern`, expected one \
         of `type`, `tool`, `value`"
    );
    assert_eq!(
        err(&tool_inputs("    - {type: equals, tool: t, value: x}\n")),
        "s.yaml: at eval.tool_input_assertions[0].type: unknown type `equals`, expected one of \
         `contains`, `regex`, `jsonpath`"
    );
}

/// A scenario without a prompt is evaluated on a recording: its checks see the recorded
/// conversation (`agent-test eval --scenarios s.yaml --runs recording.json`).
#[test]
fn a_scenario_without_a_prompt_is_evaluated_on_a_recording() {
    let text = "name: recorded\neval:\n  tool_constraints:\n    required_tools: [lookup]\n  response_assertions:\n    - {type: contains, value: delivered}\n";
    let case = mcplab(text);
    assert!(case.scenario.steps.is_empty());
    assert_passes(
        &case
            .scenario
            .evaluate(&run("It was delivered.", &["lookup"])),
    );
    assert_fails(&case.scenario.evaluate(&run("Unknown.", &[])));
    // With neither a prompt nor checks there is nothing to do.
    assert_eq!(
        load_error(
            SeedFormat::McpLab,
            "scenarios:\n  - prompt: a\n  - name: b\n",
            "s.yaml"
        ),
        "s.yaml: at scenarios[1]: missing field `prompt` (or an `eval` to evaluate a recording with)"
    );
}

/// A judge that passes the checks named in `pass` and counts requests and checks.
struct PerLabel {
    pass: Vec<&'static str>,
    seen: std::sync::Mutex<(usize, Vec<String>)>,
    /// Each check's material, as the judge received it.
    materials: std::sync::Mutex<Vec<serde_json::Value>>,
}

impl PerLabel {
    fn new(pass: Vec<&'static str>) -> Self {
        PerLabel {
            pass,
            seen: std::sync::Mutex::default(),
            materials: std::sync::Mutex::default(),
        }
    }
}

impl agent_test_runtime::judge::JudgeModel for PerLabel {
    fn id(&self) -> String {
        "per-label".into()
    }
    fn complete<'a>(
        &'a self,
        prompt: &'a agent_test_runtime::judge::JudgePrompt,
    ) -> agent_test_runtime::agent::BoxFuture<
        'a,
        Result<agent_test_runtime::judge::Completion, agent_test_runtime::judge::ModelError>,
    > {
        Box::pin(async move {
            let asked: serde_json::Value = serde_json::from_str(&prompt.user).unwrap_or_default();
            let mut seen = self.seen.lock().unwrap();
            seen.0 += 1;
            let mut results = Vec::new();
            for c in asked["checks"].as_array().into_iter().flatten() {
                let name = c["material"]["check"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                let pass = self.pass.contains(&name.as_str());
                seen.1.push(name);
                self.materials.lock().unwrap().push(c["material"].clone());
                results.push(json!({"id": c["id"], "score": if pass { 1.0 } else { 0.0 }, "pass": pass, "reasoning": "scripted"}));
            }
            Ok(agent_test_runtime::judge::Completion {
                text: json!({ "results": results }).to_string(),
                usage: None,
            })
        })
    }
}

/// Agent assertions are graded per label: two with the same prompt are two checks with two
/// grades, still sent in one request.
#[test]
fn agent_assertions_are_graded_per_label() {
    let text = "prompt: What happened?\neval:\n  agent_context:\n    include_tool_inputs: true\n  agent_assertions:\n    - label: first\n      prompt: Confirm the answer is complete.\n    - label: second\n      prompt: Confirm the answer is complete.\n";
    let case = mcplab(text);
    let options = judge_options(&case, 0);
    assert_eq!(options["include_tool_inputs"], json!(true), "{options}");
    let model = std::sync::Arc::new(PerLabel::new(vec!["first"]));
    let judge = agent_test_runtime::judge::Judge::new(model.clone())
        .mode(agent_test_runtime::judge::JudgeMode::Off);
    let report = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(
            case.scenario
                .evaluator()
                .evaluate_judged(run("All done.", &["search"]), Some(&judge)),
        );
    assert_verdicts(&report, &[("first", Pass), ("second", Fail)]);
    let seen = model.seen.lock().unwrap();
    assert_eq!(seen.0, 1, "one request");
    assert_eq!(seen.1, ["first", "second"]);
}

/// What MCPLab's judge sees (`packages/core/src/eval.ts`, `evaluateScenarioWithAgentChecks`):
/// the final answer only without `agent_context`; with it, the scenario's prompt, the called
/// tools' names in order (failed calls too), and their inputs, as each flag says.
#[test]
fn the_judge_sees_what_agent_context_names() {
    let material = |context: &str| {
        let text = format!(
            "prompt: When did the incident start?\neval:\n{context}  agent_assertions:\n    - label: answered\n      prompt: Confirm the answer gives a time.\n"
        );
        let case = mcplab(&text);
        let model = std::sync::Arc::new(PerLabel::new(vec!["answered"]));
        let judge = agent_test_runtime::judge::Judge::new(model.clone())
            .mode(agent_test_runtime::judge::JudgeMode::Off);
        let run = one(
            "When did the incident start?",
            Reply::text("At 09:12 UTC.")
                .call(Call::tool("search_logs", json!({"q": "incident"})))
                .call(
                    Call::tool("get_event", json!({"id": 7}))
                        .failed_with(ToolErrorKind::Execution, json!("timeout")),
                ),
        );
        let report = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(case.scenario.evaluator().evaluate_judged(run, Some(&judge)));
        assert_verdicts(&report, &[("answered", Pass)]);
        let seen = model.materials.lock().unwrap();
        assert_eq!(seen.len(), 1);
        seen[0].clone()
    };
    assert_eq!(
        material(""),
        json!({"check": "answered", "text": "At 09:12 UTC."})
    );
    assert_eq!(
        material("  agent_context:\n    include_prompt: true\n"),
        json!({"check": "answered", "text": "At 09:12 UTC.", "user_message": "When did the incident start?"})
    );
    assert_eq!(
        material("  agent_context:\n    include_tool_sequence: true\n"),
        json!({"check": "answered", "text": "At 09:12 UTC.", "tool_sequence": ["search_logs", "get_event"]})
    );
    assert_eq!(
        material("  agent_context:\n    include_tool_inputs: true\n    include_prompt: false\n"),
        json!({"check": "answered", "text": "At 09:12 UTC.", "tool_inputs": [
            {"tool": "search_logs", "arguments": {"q": "incident"}},
            {"tool": "get_event", "arguments": {"id": 7}},
        ]})
    );
}
