//! Import throughput of the seed formats: 1,000 cases per file, parsed, validated and mapped
//! onto native scenarios.
//!
//! ```text
//! cargo bench -p agent-test-benches --bench formats
//! ```
//!
//! divan reports items (cases) per second, per format.

use agent_test_runtime::formats::SeedFormat;

fn main() {
    for f in SeedFormat::ALL {
        let (text, file) = suite(f);
        let cases = agent_test_runtime::load::cases_from_text(&text, file, None)
            .expect("the generated suite loads");
        assert_eq!(cases.len(), CASES, "{f}");
    }
    divan::main();
}

const CASES: usize = 1_000;

const MIBO: &str = r#"{"scenario": "Checkout N", "input_utterance": "Buy the cheapest laptop", "context": {"USER_ID": 12345},
 "assertions": {"procedural": [
  {"target": "node_call", "condition": "MUST_CALL", "expected_name": "Agent", "id": "called", "expected_tool_calls": [
    {"condition": "MUST_CALL", "expected_name": "search_products", "expected_index": 0, "expected_arguments": {"query": {"matcher": "contains", "value": "laptop"}}},
    {"condition": "MUST_CALL", "expected_name": "create_order", "expected_arguments": {"user_id": {"matcher": "exact", "expression": "USER_ID"}, "tags": ["vip", "urgent"]}},
    {"condition": "MUST_NOT_CALL", "expected_name": "delete_records"}]},
  {"target": "json_match", "field": "data.order.status", "expected_value": "confirmed", "depends_on": "called"},
  {"target": "response_regex", "pattern": "Order #\\d{4,} confirmed", "should_match": true},
  {"target": "token_limit", "max_total_tokens": 4000}],
 "semantic": [{"criteria": "Confirms the order", "threshold": 0.85, "negative_constraints": ["No invented prices"]}]}}"#;

const MCPLAB: &str = "- name: refund N
  prompt: Refund my last order
  eval:
    tool_constraints:
      required_tools: [lookup_account, verify_identity]
      forbidden_tools: [delete_account]
    tool_sequence: [lookup_account, verify_identity, process_refund]
    response_assertions:
      - type: contains
        value: refund processed
      - type: regex
        pattern: 'refund\\s+(processed|completed)'
      - type: jsonpath
        path: $.status
        equals: success
    agent_assertions:
      - label: addresses_question
        prompt: Confirm the answer directly addresses the original question.
";

const PROMPTKIT: &str = "- apiVersion: promptkit.altairalabs.ai/v1alpha1
  kind: Scenario
  metadata:
    name: weather N
  spec:
    turns:
      - role: user
        content: What's the weather in San Francisco?
        assertions:
          - type: tools_called
            params:
              tools: [get_weather]
          - type: content_includes
            params:
              patterns: [weather, San Francisco]
      - role: user
        content: And tomorrow?
        assertions:
          - type: content_matches
            params:
              pattern: '(?i)(date|time|day)'
    conversation_assertions:
      - type: tool_calls_with_args
        params:
          tool_name: get_weather
          required_args:
            location: San Francisco
          args_match:
            units: '^(metric|imperial)$'
";

const LAMDIS: &str = r#"{"id": "transfer-N", "name": "Account Transfer Flow", "steps": [
 {"type": "request", "id": "setup", "requestId": "accounts.create_test", "inputMappings": {"balance": 10000}, "saveAs": "sourceAccount"},
 {"type": "message", "role": "user", "content": "Transfer $500 to ${bag.var.sourceAccount.accountId}"},
 {"type": "assistant_check", "mode": "judge", "rubric": "Confirms the amount", "threshold": 0.8, "scope": "last"},
 {"type": "assistant_check", "mode": "includes", "includes": ["transfer", "confirm"]},
 {"type": "extract", "variableName": "transferId", "description": "The transfer ID"},
 {"type": "assistant_check", "mode": "variable_check", "variablePath": "bag.var.transferId", "expectEquals": "TR-1"}]}"#;

const MORGANA: &str = r#"{"inputs": {"messages": [{"role": "user", "content": "Email ana@example.com the agenda"}], "tools": ["send_email"]}, "expectations": {"assertions": [{"assert_that": "tool_called", "tool": "send_email", "parameters": [{"param": "to", "matcher": {"match_as": "email", "value": "ana@example.com"}}, {"param": "cc", "matcher": {"match_as": "missing"}}]}]}, "outputs": {"response": "Sent.", "trace": [{"event": "tool_call", "id": "1", "tool": "send_email", "params": {"to": "ana@example.com"}}, {"event": "tool_result", "id": "1", "result": {"ok": true}}]}}"#;

/// A file of the format with [`CASES`] cases, and its name (whose extension matters).
fn suite(format: SeedFormat) -> (String, &'static str) {
    let many = |case: &str, sep: &str| {
        (0..CASES)
            .map(|i| {
                case.replace(" N", &format!(" {i}"))
                    .replace("-N", &format!("-{i}"))
            })
            .collect::<Vec<_>>()
            .join(sep)
    };
    match format {
        SeedFormat::Mibo => (format!("[{}]", many(MIBO, ",")), "suite.json"),
        SeedFormat::McpLab => (many(MCPLAB, ""), "suite.yaml"),
        SeedFormat::PromptKit => (many(PROMPTKIT, ""), "suite.yaml"),
        SeedFormat::Lamdis => (format!("[{}]", many(LAMDIS, ",")), "suite.json"),
        SeedFormat::MorganaBench => (many(MORGANA, "\n"), "suite.jsonl"),
        other => unreachable!("no benchmark suite for {other}"),
    }
}

#[divan::bench(args = SeedFormat::ALL, sample_count = 10)]
fn import(bencher: divan::Bencher, format: SeedFormat) {
    let (text, file) = suite(format);
    bencher
        .counter(divan::counter::ItemsCount::new(CASES))
        .bench(|| {
            agent_test_runtime::load::cases_from_text(divan::black_box(&text), file, None)
                .map(|c| c.len())
        });
}
