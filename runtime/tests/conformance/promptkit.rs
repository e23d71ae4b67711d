//! PromptKit (seed 002, semantics.md §4): every example of the assertions reference, evaluated
//! passively on a run that passes it and one that fails it; then a table of the format's
//! semantics; then malformed files.
//!
//! Most of the seed's examples are fragments: a turn (`- role: user ...`), an `assertions:`
//! list, a `conversation_assertions:` list, workflow `steps:`, or a single `pattern:` line.
//! Each is wrapped into the smallest complete `kind: Scenario` document by the helpers below
//! ([`turns_doc`], [`in_a_turn`], [`conversation_doc`], [`spec_doc`], [`pattern_doc`]), the
//! fragment itself copied as written.

use agent_test_runtime::formats::{ImportedCase, SeedFormat};
use agent_test_runtime::model::{Call, Guardrail, Reply, Transcript, Workflow};
use serde_json::json;

use crate::support::*;

fn promptkit(text: &str) -> ImportedCase {
    case(SeedFormat::PromptKit, text, "scenario.yaml")
}

const HEAD: &str = "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata:\n  name: seed-example\nspec:\n";

fn indent(text: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{pad}{l}\n")
            }
        })
        .collect()
}

/// A fragment that is a list of turns (`- role: user ...`): the scenario's `spec.turns`.
fn turns_doc(turns: &str) -> String {
    format!("{HEAD}  turns:\n{}", indent(turns, 4))
}

/// A fragment that is an `assertions:` block: the assertions of one user turn.
fn in_a_turn(assertions: &str) -> String {
    turns_doc(&format!(
        "- role: user\n  content: \"Hello\"\n{}",
        indent(assertions, 2)
    ))
}

/// A fragment that is a `conversation_assertions:` block, after one user turn.
fn conversation_doc(assertions: &str) -> String {
    format!(
        "{HEAD}  turns:\n    - role: user\n      content: \"Hello\"\n{}",
        indent(assertions, 2)
    )
}

/// A fragment that is a key of `spec` (`turns:`, workflow `steps:`).
fn spec_doc(fragment: &str) -> String {
    format!("{HEAD}{}", indent(fragment, 2))
}

/// A `pattern:` line of the seed: the pattern of a `content_matches` in one turn.
fn pattern_doc(pattern_line: &str) -> String {
    in_a_turn(&format!(
        "assertions:\n  - type: content_matches\n    params:\n      {}\n",
        pattern_line.trim()
    ))
}

/// A one-turn run.
fn run(reply: Reply) -> Transcript {
    one("Hello", reply)
}

fn tool(name: &str, args: serde_json::Value) -> Call {
    Call::tool(name, args)
}

// ---------------------------------------------------------------------------------------------
// Content assertions

const CONTENT_INCLUDES: &str = r#"- role: user
  content: "What is the capital of France?"
  assertions:
    - type: content_includes
      params:
        patterns: ["Paris"]
        message: "Should mention Paris"
"#;

#[test]
fn content_includes_is_a_case_insensitive_substring() {
    let case = promptkit(&turns_doc(CONTENT_INCLUDES));
    // The seed's own examples: ✅ "The capital is Paris", ✅ "PARIS is the capital".
    for good in ["The capital is Paris", "PARIS is the capital"] {
        let report = case.scenario.evaluate(&run(Reply::text(good)));
        assert_verdicts(&report, &[("Should mention Paris", Pass)]);
    }
    let report = case
        .scenario
        .evaluate(&run(Reply::text("It is Lyon, I think.")));
    assert_verdicts(&report, &[("Should mention Paris", Fail)]);
    assert_reason(
        &report,
        "Should mention Paris",
        Fail,
        &[r#"reply does not contain "Paris""#],
    );
}

#[test]
fn content_includes_pari_matches_paris() {
    // The seed says "❌ "Pari" does not match "Paris"", which contradicts its own rule (a
    // case-insensitive plain substring). semantics.md §4: PromptKit's implementation is a plain
    // substring, so "Pari" *does* match "Paris". We follow semantics.md.
    let case = promptkit(&in_a_turn(
        "assertions:\n  - type: content_includes\n    params:\n      patterns: [\"Pari\"]\n",
    ));
    let report = case.scenario.evaluate(&run(Reply::text("Paris")));
    assert_verdicts(&report, &[("Pari", Pass)]);
}

const MULTIPLE_PATTERNS: &str = r#"assertions:
  - type: content_includes
    params:
      patterns:
        - "Paris"
        - "France"
      message: "Should mention both Paris and France"
"#;

#[test]
fn content_includes_needs_every_pattern() {
    let case = promptkit(&in_a_turn(MULTIPLE_PATTERNS));
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Paris is the capital of France.")));
    assert_verdicts(
        &report,
        &[
            ("Should mention both Paris and France (Paris)", Pass),
            ("Should mention both Paris and France (France)", Pass),
        ],
    );
    // The failure names the missing pattern (the seed's `missing_patterns`).
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Paris is lovely in spring.")));
    assert_verdicts(&report, &[("(Paris)", Pass), ("(France)", Fail)]);
    assert_reason(
        &report,
        "(France)",
        Fail,
        &[r#"reply does not contain "France""#],
    );
}

const CONTENT_MATCHES: &str = r#"- role: user
  content: "What's your email?"
  assertions:
    - type: content_matches
      params:
        pattern: "(?i)\\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Z|a-z]{2,}\\b"
        message: "Should provide email address"
"#;

#[test]
fn content_matches_an_email() {
    let case = promptkit(&turns_doc(CONTENT_MATCHES));
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Write to Help@Example.COM anytime.")));
    assert_verdicts(&report, &[("Should provide email address", Pass)]);
    // The seed's failure example: "Please call us instead".
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Please call us instead")));
    assert_verdicts(&report, &[("Should provide email address", Fail)]);
    assert_reason(
        &report,
        "Should provide email address",
        Fail,
        &["does not match"],
    );
}

#[test]
fn the_pattern_examples() {
    // (the seed's `pattern:` line, a reply it matches, a reply it does not)
    let rows = [
        // Pattern Examples
        (r#"pattern: "(?i)hello""#, "HeLLo there", "Hi there"),
        (
            r#"pattern: "\\d{3}-\\d{3}-\\d{4}""#,
            "Call 555-123-4567",
            "Call 555-1234",
        ),
        (
            r##"pattern: "#\\d{5,}""##,
            "Order #12345 shipped",
            "Order #1234",
        ),
        (
            r#"pattern: "(?i)\\b(yes|no)\\b""#,
            "YES, it is",
            "Yesterday",
        ),
        (
            r#"pattern: "(?i)(understand|sorry|apologize|help)""#,
            "I'm SORRY to hear that",
            "Noted.",
        ),
        // Common Patterns
        (
            r#"pattern: "(?i)\\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Z|a-z]{2,}\\b""#,
            "ana@example.pt",
            "ana at example dot pt",
        ),
        (
            r#"pattern: "https?://[^\\s]+""#,
            "See https://example.com/x",
            "See example.com",
        ),
        (
            r##"pattern: "#?[A-Z0-9]{6,}""##,
            "Tracking 1Z999AA1",
            "tracking 12ab",
        ),
        (
            r#"pattern: "\\$\\d+(\\.\\d{2})?""#,
            "It costs $42.50",
            "It costs 42 USD",
        ),
        (
            r#"pattern: "\\(?\\d{3}\\)?[-.\\s]?\\d{3}[-.\\s]?\\d{4}""#,
            "(555) 123-4567",
            "555-12-34",
        ),
    ];
    for (line, good, bad) in rows {
        let case = promptkit(&pattern_doc(line));
        let report = case.scenario.evaluate(&run(Reply::text(good)));
        assert!(report.passed(), "{line} should match {good:?}:\n{report}");
        let report = case.scenario.evaluate(&run(Reply::text(bad)));
        assert!(!report.passed(), "{line} should not match {bad:?}");
        assert_eq!(report.verdicts[0].status, Fail, "{}", table(&report));
    }
}

// ---------------------------------------------------------------------------------------------
// Tool call assertions

const TOOLS_CALLED: &str = r#"- role: user
  content: "What's the weather in San Francisco?"
  assertions:
    - type: tools_called
      params:
        tools:
          - get_weather
        message: "Should call weather tool"
"#;

const TOOLS_CALLED_MULTIPLE: &str = r#"- role: user
  content: "Check my order and update my address"
  assertions:
    - type: tools_called
      params:
        tools:
          - check_order_status
          - update_customer_address
        message: "Should call both order and address tools"
"#;

#[test]
fn tools_called() {
    let case = promptkit(&turns_doc(TOOLS_CALLED));
    let report = case.scenario.evaluate(&run(
        Reply::text("Sunny.").call(tool("get_weather", json!({"location": "SF"})))
    ));
    assert_verdicts(&report, &[("Should call weather tool", Pass)]);
    // The seed's failure: `missing_tools: [get_weather]`, `called_tools: [search_web]`.
    let report = case
        .scenario
        .evaluate(&run(Reply::text("…").call(tool("search_web", json!({})))));
    assert_reason(
        &report,
        "Should call weather tool",
        Fail,
        &["required tool not called: get_weather"],
    );

    let case = promptkit(&turns_doc(TOOLS_CALLED_MULTIPLE));
    // Order does not matter; a tool called several times counts once.
    let report = case.scenario.evaluate(&run(Reply::text("Done.")
        .call(tool("update_customer_address", json!({})))
        .call(tool("check_order_status", json!({})))
        .call(tool("check_order_status", json!({})))));
    assert_verdicts(&report, &[("Should call both", Pass)]);
    let report = case.scenario.evaluate(&run(
        Reply::text("Done.").call(tool("check_order_status", json!({})))
    ));
    assert_reason(
        &report,
        "Should call both",
        Fail,
        &["required tool not called: update_customer_address"],
    );
}

const TOOLS_NOT_CALLED: &str = r#"- role: user
  content: "What's the weather like?"
  assertions:
    - type: tools_not_called
      params:
        tools:
          - delete_account
          - charge_credit_card
        message: "Should not call destructive tools"
"#;

const POLICY_ENFORCEMENT: &str = r#"# Ensure read-only operations
- role: user
  content: "Show me my account details"
  assertions:
    - type: tools_not_called
      params:
        tools:
          - update_account
          - delete_account
          - create_order
        message: "Should only read, not modify"
"#;

#[test]
fn tools_not_called() {
    let case = promptkit(&turns_doc(TOOLS_NOT_CALLED));
    let report = case.scenario.evaluate(&run(
        Reply::text("Mild.").call(tool("get_weather", json!({})))
    ));
    assert_verdicts(&report, &[("Should not call destructive tools", Pass)]);
    let report = case.scenario.evaluate(&run(Reply::text("Done.")
        .call(tool("get_account", json!({})))
        .call(tool("delete_account", json!({})))));
    assert_reason(
        &report,
        "Should not call destructive tools",
        Fail,
        &["forbidden tool called: delete_account"],
    );

    let case = promptkit(&turns_doc(POLICY_ENFORCEMENT));
    let report = case.scenario.evaluate(&run(
        Reply::text("Here.").call(tool("get_account", json!({})))
    ));
    assert_verdicts(&report, &[("Should only read, not modify", Pass)]);
    let report = case.scenario.evaluate(&run(Reply::text("Updated.")
        .call(tool("get_account", json!({})))
        .call(tool("update_account", json!({"email": "x@y.z"})))));
    assert_verdicts(&report, &[("Should only read, not modify", Fail)]);
}

const ARGS_EXACT: &str = r#"- role: user
  content: "What's the weather in San Francisco?"
  assertions:
    - type: tool_calls_with_args
      params:
        tool_name: get_weather
        expected_args:
          location: "San Francisco"
      message: "Should pass location correctly"
"#;

const ARGS_REGEX: &str = r#"- role: user
  content: "Analyze this image and describe it"
  assertions:
    - type: tool_calls_with_args
      params:
        tool_name: analyze_image
        args_match:
          description: "(?i)(logo|image|picture|graphic)"
      message: "Description should reference visual content"
"#;

const ARGS_PRESENCE: &str = r#"- role: user
  content: "Get weather for my city"
  assertions:
    - type: tool_calls_with_args
      params:
        tool_name: get_weather
        expected_args:
          location: null  # Just check that location exists
      message: "Should pass some location"
"#;

#[test]
fn tool_calls_with_args_in_a_turn() {
    let case = promptkit(&turns_doc(ARGS_EXACT));
    let report = case.scenario.evaluate(&run(
        Reply::text("").call(tool("get_weather", json!({"location": "San Francisco"})))
    ));
    assert_verdicts(&report, &[("Should pass location correctly", Pass)]);
    let report = case.scenario.evaluate(&run(
        Reply::text("").call(tool("get_weather", json!({"location": "SF"})))
    ));
    assert_reason(
        &report,
        "Should pass location correctly",
        Fail,
        &["location:", "\"SF\""],
    );

    let case = promptkit(&turns_doc(ARGS_REGEX));
    let report = case.scenario.evaluate(&run(Reply::text("").call(tool(
        "analyze_image",
        json!({"description": "A company LOGO on white"}),
    ))));
    assert_verdicts(&report, &[("Description should reference", Pass)]);
    let report = case.scenario.evaluate(&run(Reply::text("").call(tool(
        "analyze_image",
        json!({"description": "A spreadsheet"}),
    ))));
    assert_reason(
        &report,
        "Description should reference",
        Fail,
        &["description: expected a match of /(?i)(logo|image|picture|graphic)/"],
    );

    // `null`: the argument must be there, any value.
    let case = promptkit(&turns_doc(ARGS_PRESENCE));
    let report = case.scenario.evaluate(&run(
        Reply::text("").call(tool("get_weather", json!({"location": "Lisbon"})))
    ));
    assert_verdicts(&report, &[("Should pass some location", Pass)]);
    let report = case.scenario.evaluate(&run(
        Reply::text("").call(tool("get_weather", json!({"units": "metric"})))
    ));
    assert_reason(
        &report,
        "Should pass some location",
        Fail,
        &["location: missing"],
    );
    let kinds: Vec<&str> = report.verdicts[0]
        .details
        .violations
        .iter()
        .map(|v| v.kind.as_str())
        .collect();
    assert_eq!(kinds, ["missing_argument"]);
}

const ARGS_CONVERSATION: &str = r#"apiVersion: promptkit.altairalabs.ai/v1alpha1
kind: Scenario
metadata:
  name: tool-args-test
spec:
  task_type: test
  description: "Test tool arguments"
  turns:
    - role: user
      content: "What's the weather in San Francisco?"
  conversation_assertions:
    - type: tool_calls_with_args
      params:
        tool_name: get_weather
        required_args:
          location: "San Francisco"
      message: "Should pass location correctly"
"#;

const ARGS_CONVERSATION_REGEX: &str = r#"conversation_assertions:
  - type: tool_calls_with_args
    params:
      tool_name: search_products
      args_match:
        query: "(?i)(laptop|computer|electronics)"
    message: "Should search for electronics-related terms"
"#;

const ARGS_COMBINED: &str = r#"conversation_assertions:
  - type: tool_calls_with_args
    params:
      tool_name: create_order
      required_args:
        category: "electronics"
      args_match:
        product_id: "^PROD-[0-9]+$"
    message: "Should create order with valid product ID"
"#;

#[test]
fn tool_calls_with_args_in_the_conversation() {
    let case = promptkit(ARGS_CONVERSATION);
    assert_eq!(case.scenario.name, "tool-args-test");
    assert_eq!(
        case.scenario.description.as_deref(),
        Some("Test tool arguments")
    );
    assert_eq!(case.scenario.context.get("task_type"), Some(&json!("test")));
    let report = case.scenario.evaluate(&run(
        Reply::text("").call(tool("get_weather", json!({"location": "San Francisco"})))
    ));
    assert_verdicts(&report, &[("Should pass location correctly", Pass)]);
    // The seed's failure: expected `San Francisco`, actual `SF`.
    let report = case.scenario.evaluate(&run(
        Reply::text("").call(tool("get_weather", json!({"location": "SF"})))
    ));
    assert_verdicts(&report, &[("Should pass location correctly", Fail)]);

    let case = promptkit(&conversation_doc(ARGS_CONVERSATION_REGEX));
    let t = turns(vec![
        (
            "a",
            Reply::text("").call(tool("search_products", json!({"query": "Gaming Laptop"}))),
        ),
        (
            "b",
            Reply::text("").call(tool("search_products", json!({"query": "COMPUTER desk"}))),
        ),
    ]);
    assert_verdicts(
        &case.scenario.evaluate(&t),
        &[("Should search for electronics", Pass)],
    );
    // Every call must satisfy the constraints, not just one.
    let t = turns(vec![
        (
            "a",
            Reply::text("").call(tool("search_products", json!({"query": "laptop"}))),
        ),
        (
            "b",
            Reply::text("").call(tool("search_products", json!({"query": "garden chairs"}))),
        ),
    ]);
    let report = case.scenario.evaluate(&t);
    assert_reason(
        &report,
        "Should search for electronics",
        Fail,
        &["1 of 2 calls of tool `search_products` did not match"],
    );

    let case = promptkit(&conversation_doc(ARGS_COMBINED));
    let report = case.scenario.evaluate(&run(Reply::text("").call(tool(
        "create_order",
        json!({"category": "electronics", "product_id": "PROD-1042"}),
    ))));
    assert_verdicts(&report, &[("Should create order", Pass)]);
    let report = case.scenario.evaluate(&run(Reply::text("").call(tool(
        "create_order",
        json!({"category": "Electronics", "product_id": "prod-1042"}),
    ))));
    assert_reason(
        &report,
        "Should create order",
        Fail,
        &[
            "category:",
            "product_id: expected a match of /^PROD-[0-9]+$/",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Agent assertions

const AGENT_INVOKED: &str = r#"- role: user
  content: "Search for papers about quantum computing"
  assertions:
    - type: agent_invoked
      params:
        agents:
          - a2a__research_agent__search_papers
        message: "Should delegate to the research agent"
"#;

const AGENT_INVOKED_MULTIPLE: &str = r#"- role: user
  content: "Research quantum computing and translate the summary to French"
  assertions:
    - type: agent_invoked
      params:
        agents:
          - a2a__research_agent__search_papers
          - a2a__translation_agent__translate
        message: "Should delegate to both research and translation agents"
"#;

const AGENT_NOT_INVOKED: &str = r#"- role: user
  content: "What is 2 + 2?"
  assertions:
    - type: agent_not_invoked
      params:
        agents:
          - a2a__research_agent__search_papers
        message: "Should answer directly without delegating to research agent"
"#;

const AGENT_RESPONSE_CONTAINS: &str = r#"- role: user
  content: "Search for papers about quantum computing"
  assertions:
    - type: agent_response_contains
      params:
        agent: a2a__research_agent__search_papers
        contains: "Quantum Computing Fundamentals"
        message: "Research agent should return quantum computing papers"
"#;

const RESEARCH: &str = "a2a__research_agent__search_papers";
const TRANSLATE: &str = "a2a__translation_agent__translate";

fn delegation(agent: &str, result: serde_json::Value) -> Call {
    tool(agent, json!({"query": "quantum computing"})).result(result)
}

#[test]
fn agents_invoked_in_a_turn() {
    let case = promptkit(&turns_doc(AGENT_INVOKED));
    let report = case.scenario.evaluate(&run(
        Reply::text("Found 3.").call(delegation(RESEARCH, json!("3 papers")))
    ));
    assert_verdicts(&report, &[("Should delegate to the research agent", Pass)]);
    let report = case.scenario.evaluate(&run(Reply::text("From memory: …")));
    assert_reason(
        &report,
        "Should delegate to the research agent",
        Fail,
        &["missing required agent invocations: a2a__research_agent__search_papers"],
    );

    let case = promptkit(&turns_doc(AGENT_INVOKED_MULTIPLE));
    let report = case.scenario.evaluate(&run(Reply::text("Voilà.")
        .call(delegation(TRANSLATE, json!("Résumé")))
        .call(delegation(RESEARCH, json!("Summary")))));
    assert_verdicts(&report, &[("Should delegate to both", Pass)]);
    let report = case.scenario.evaluate(&run(
        Reply::text("Summary.").call(delegation(RESEARCH, json!("Summary")))
    ));
    assert_reason(
        &report,
        "Should delegate to both",
        Fail,
        &["missing required agent invocations: a2a__translation_agent__translate"],
    );

    let case = promptkit(&turns_doc(AGENT_NOT_INVOKED));
    let report = case.scenario.evaluate(&run(Reply::text("4")));
    assert_verdicts(&report, &[("Should answer directly", Pass)]);
    let report = case
        .scenario
        .evaluate(&run(Reply::text("4").call(delegation(RESEARCH, json!("…")))));
    assert_reason(
        &report,
        "Should answer directly",
        Fail,
        &["forbidden agents were invoked: a2a__research_agent__search_papers"],
    );
}

#[test]
fn agent_response_contains_reads_the_agent_call_result() {
    let case = promptkit(&turns_doc(AGENT_RESPONSE_CONTAINS));
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Here they are.").call(delegation(
            RESEARCH,
            json!({"papers": ["Quantum Computing Fundamentals (2021)"]}),
        ))));
    assert_verdicts(&report, &[("Research agent should return", Pass)]);
    // Case-sensitive; and the reply text does not count, only the agent's response.
    let report = case.scenario.evaluate(&run(Reply::text(
        "Quantum Computing Fundamentals is a good start.",
    )
    .call(delegation(
        RESEARCH,
        json!("quantum computing fundamentals (2021)"),
    ))));
    assert_reason(
        &report,
        "Research agent should return",
        Fail,
        &["no matching agent response found containing expected text"],
    );
}

/// PromptKit matches agents by exact tool name (its agents *are* the member tools), where the
/// native rule also lets an agent name match its `a2a__<name>__<tool>` members.
#[test]
fn agent_names_are_exact_tool_names() {
    let doc = r#"- role: user
  content: "Search for papers"
  assertions:
    - type: agent_not_invoked
      params:
        agents: [research_agent]
        message: "bare name not invoked"
    - type: agent_invoked
      params:
        agents: [research_agent]
        message: "bare name invoked"
    - type: agent_response_contains
      params:
        agent: research_agent
        contains: "Quantum"
        message: "bare name responded"
"#;
    let case = promptkit(&turns_doc(doc));
    let report = case.scenario.evaluate(&run(
        Reply::text("Found.").call(delegation(RESEARCH, json!("Quantum papers")))
    ));
    assert_verdicts(
        &report,
        &[
            ("bare name not invoked", Pass),
            ("bare name invoked", Fail),
            ("bare name responded", Fail),
        ],
    );
    assert_reason(
        &report,
        "bare name invoked",
        Fail,
        &["missing required agent invocations: research_agent"],
    );
}

const AGENT_INVOKED_CONVERSATION: &str = r#"apiVersion: promptkit.altairalabs.ai/v1alpha1
kind: Scenario
metadata:
  name: multi-agent-test
spec:
  task_type: assistant
  description: "Test multi-agent delegation"
  turns:
    - role: user
      content: "Research quantum computing"
    - role: user
      content: "Translate the summary to French"
  conversation_assertions:
    - type: agent_invoked
      params:
        agent_names:
          - a2a__research_agent__search_papers
          - a2a__translation_agent__translate
        min_calls: 1
      message: "Both agents should be invoked at least once"
"#;

const AGENT_NOT_INVOKED_CONVERSATION: &str = r#"conversation_assertions:
  - type: agent_not_invoked
    params:
      agent_names:
        - a2a__admin_agent__execute
    message: "Admin agent should never be invoked in user-facing scenarios"
"#;

#[test]
fn agents_invoked_in_the_conversation() {
    let case = promptkit(AGENT_INVOKED_CONVERSATION);
    let good = turns(vec![
        (
            "Research quantum computing",
            Reply::text("Summary: …").call(delegation(RESEARCH, json!("…"))),
        ),
        (
            "Translate the summary to French",
            Reply::text("Résumé : …").call(delegation(TRANSLATE, json!("…"))),
        ),
    ]);
    let report = case.scenario.evaluate(&good);
    assert_verdicts(&report, &[("Both agents should be invoked", Pass)]);
    // The seed's failure: the translation agent was never invoked.
    let bad = turns(vec![
        (
            "Research quantum computing",
            Reply::text("Summary: …").call(delegation(RESEARCH, json!("…"))),
        ),
        ("Translate the summary to French", Reply::text("Résumé : …")),
    ]);
    let report = case.scenario.evaluate(&bad);
    assert_reason(
        &report,
        "Both agents should be invoked",
        Fail,
        &["missing required agent invocations: a2a__translation_agent__translate"],
    );

    let case = promptkit(&conversation_doc(AGENT_NOT_INVOKED_CONVERSATION));
    let report = case.scenario.evaluate(&run(Reply::text("Hi!")));
    assert_verdicts(&report, &[("Admin agent should never", Pass)]);
    let report = case.scenario.evaluate(&run(
        Reply::text("Done.").call(tool("a2a__admin_agent__execute", json!({"command": "..."})))
    ));
    assert_reason(
        &report,
        "Admin agent should never",
        Fail,
        &["forbidden agents were invoked: a2a__admin_agent__execute"],
    );
    // The seed's `violations[].evidence`: the agent and its arguments.
    assert_eq!(
        report.verdicts[0].details.violations[0].evidence,
        Some(json!({"agent": "a2a__admin_agent__execute", "arguments": {"command": "..."}}))
    );
}

// ---------------------------------------------------------------------------------------------
// Workflow and guardrail assertions

const STATE_IS: &str = r#"steps:
  - type: input
    content: "I need help with billing"
    assertions:
      - type: state_is
        params:
          state: "intake"
        message: "Should still be in intake state"
"#;

const TRANSITIONED_TO: &str = r#"steps:
  - type: input
    content: "I need to speak with a specialist about my billing issue"
    assertions:
      - type: transitioned_to
        params:
          state: "specialist"
        message: "LLM should have called workflow__transition to escalate"
"#;

const WORKFLOW_COMPLETE: &str = r#"steps:
  - type: input
    content: "Thanks for your help, everything is resolved!"
    assertions:
      - type: workflow_complete
        message: "LLM should have resolved the workflow to a terminal state"
"#;

#[test]
fn workflow_state_transitions_and_completion() {
    let state = |w: Workflow| run(Reply::text("…").workflow(w));

    let case = promptkit(&spec_doc(STATE_IS));
    let report = case.scenario.evaluate(&state(Workflow::in_state("intake")));
    assert_verdicts(&report, &[("Should still be in intake state", Pass)]);
    let report = case
        .scenario
        .evaluate(&state(Workflow::in_state("processing")));
    assert_reason(
        &report,
        "Should still be in intake state",
        Fail,
        &[r#"expected state "intake" but workflow is in state "processing""#],
    );
    // Absent state fails.
    let report = case.scenario.evaluate(&run(Reply::text("…")));
    assert_verdicts(&report, &[("Should still be in intake state", Fail)]);

    let case = promptkit(&spec_doc(TRANSITIONED_TO));
    let report = case.scenario.evaluate(&state(
        Workflow::in_state("specialist").transitions(["specialist"]),
    ));
    assert_verdicts(&report, &[("workflow__transition", Pass)]);
    let report = case.scenario.evaluate(&state(Workflow::in_state("intake")));
    assert_reason(
        &report,
        "workflow__transition",
        Fail,
        &[r#"workflow never transitioned to state "specialist""#],
    );

    let case = promptkit(&spec_doc(WORKFLOW_COMPLETE));
    let report = case
        .scenario
        .evaluate(&state(Workflow::in_state("resolved").completed()));
    assert_verdicts(&report, &[("terminal state", Pass)]);
    let report = case
        .scenario
        .evaluate(&state(Workflow::in_state("processing")));
    assert_reason(
        &report,
        "terminal state",
        Fail,
        &["workflow is not complete"],
    );
}

/// The seed writes `assertions: true` / `assertions: false` inside `params`, where the
/// parameter list documents `expected` (semantics.md §4 notes the contradiction): both are
/// accepted, meaning the same.
const GUARDRAILS: &str = r#"# Verify banned word is caught
- role: user
  content: "Will this definitely work?"
  assertions:
    - type: guardrail_triggered
      params:
        guardrail: banned_words
        assertions: true
        message: "Should catch banned word 'definitely'"

# Verify no guardrail triggered
- role: user
  content: "This should be fine"
  assertions:
    - type: guardrail_triggered
      params:
        assertions: false
        message: "Should not trigger any guardrail"
"#;

const LENGTH_LIMITS: &str = r#"- role: user
  content: "Tell me everything about the universe"
  assertions:
    - type: guardrail_triggered
      params:
        guardrail: max_length
        assertions: true
        message: "Should trigger length limit"
"#;

#[test]
fn guardrails_triggered_or_not() {
    let case = promptkit(&turns_doc(GUARDRAILS));
    let good = turns(vec![
        (
            "Will this definitely work?",
            Reply::text("[blocked]").guardrail(Guardrail::triggered("banned_words")),
        ),
        (
            "This should be fine",
            Reply::text("Sure.").guardrail(Guardrail::passed("banned_words")),
        ),
    ]);
    let report = case.scenario.evaluate(&good);
    assert_verdicts(
        &report,
        &[
            ("Should catch banned word", Pass),
            ("Should not trigger any guardrail", Pass),
        ],
    );
    // Swapped: the banned word slipped through, and the harmless turn was blocked.
    let bad = turns(vec![
        (
            "Will this definitely work?",
            Reply::text("Definitely!").guardrail(Guardrail::passed("banned_words")),
        ),
        (
            "This should be fine",
            Reply::text("[blocked]").guardrail(Guardrail::triggered("max_length")),
        ),
    ]);
    let report = case.scenario.evaluate(&bad);
    assert_reason(
        &report,
        "Should catch banned word",
        Fail,
        &["guardrail `banned_words` did not trigger"],
    );
    assert_reason(
        &report,
        "Should not trigger any guardrail",
        Fail,
        &["guardrail `max_length` triggered"],
    );

    let case = promptkit(&turns_doc(LENGTH_LIMITS));
    let report = case.scenario.evaluate(&run(
        Reply::text("[truncated]").guardrail(Guardrail::triggered("max_length"))
    ));
    assert_verdicts(&report, &[("Should trigger length limit", Pass)]);
    let report = case.scenario.evaluate(&run(
        Reply::text("[blocked]").guardrail(Guardrail::triggered("banned_words"))
    ));
    assert_verdicts(&report, &[("Should trigger length limit", Fail)]);
}

// ---------------------------------------------------------------------------------------------
// Advanced patterns, best practices, troubleshooting

const COMBINING: &str = r#"- role: user
  content: "What's the weather?"
  assertions:
    # Check content
    - type: content_includes
      params:
        patterns: ["weather"]
        message: "Should acknowledge weather request"

    # Check tool usage
    - type: tools_called
      params:
        tools: ["get_weather"]
        message: "Should call weather tool"

    # Check response format
    - type: content_matches
      params:
        pattern: "\\d+°[CF]"
        message: "Should include temperature with unit"
"#;

#[test]
fn combining_assertions() {
    let case = promptkit(&turns_doc(COMBINING));
    let report = case.scenario.evaluate(&run(
        Reply::text("The weather is sunny, 21°C.").call(tool("get_weather", json!({})))
    ));
    assert_verdicts(
        &report,
        &[
            ("Should acknowledge weather request", Pass),
            ("Should call weather tool", Pass),
            ("Should include temperature with unit", Pass),
        ],
    );
    let report = case
        .scenario
        .evaluate(&run(Reply::text("It is 21 degrees.")));
    assert_verdicts(
        &report,
        &[
            ("Should acknowledge weather request", Fail),
            ("Should call weather tool", Fail),
            ("Should include temperature with unit", Fail),
        ],
    );
}

const CONDITIONAL: &str = r#"# Test A: Expect tool call
- role: user
  content: "What's the weather in NYC?"
  assertions:
    - type: tools_called
      params:
        tools: ["get_weather"]

# Test B: Expect admission of limitation
- role: user
  content: "What's the weather next month?"
  assertions:
    - type: content_matches
      params:
        pattern: "(?i)(can't|cannot|unable|don't know)"
        message: "Should admit inability to predict future"
    - type: tools_not_called
      params:
        tools: ["get_weather"]
        message: "Should not attempt weather call for future"
"#;

#[test]
fn conditional_logic_per_turn() {
    let case = promptkit(&turns_doc(CONDITIONAL));
    let good = turns(vec![
        (
            "NYC?",
            Reply::text("Rainy.").call(tool("get_weather", json!({"city": "NYC"}))),
        ),
        (
            "next month?",
            Reply::text("I CAN'T predict that far ahead."),
        ),
    ]);
    let report = case.scenario.evaluate(&good);
    assert_verdicts(
        &report,
        &[
            ("tools called: get_weather", Pass),
            ("Should admit inability", Pass),
            ("Should not attempt weather call", Pass),
        ],
    );
    // Each turn's assertions see that turn only: the call in turn 1 does not break turn 2's
    // `tools_not_called`, and a call in turn 2 does not satisfy turn 1's `tools_called`.
    let bad = turns(vec![
        ("NYC?", Reply::text("Rainy, probably.")),
        (
            "next month?",
            Reply::text("Expect sun.").call(tool("get_weather", json!({"city": "NYC"}))),
        ),
    ]);
    let report = case.scenario.evaluate(&bad);
    assert_verdicts(
        &report,
        &[
            ("tools called: get_weather", Fail),
            ("Should admit inability", Fail),
            ("Should not attempt weather call", Fail),
        ],
    );
}

const PROGRESSIVE: &str = r##"turns:
  # Turn 1: Initial request
  - role: user
    content: "I need help with my order"
    assertions:
      - type: content_includes
        params:
          patterns: ["order"]

  # Turn 2: Provide details
  - role: user
    content: "Order #12345"
    assertions:
      - type: content_includes
        params:
          patterns: ["#12345"]
      - type: tools_called
        params:
          tools: ["check_order_status"]

  # Turn 3: Follow-up
  - role: user
    content: "When will it arrive?"
    assertions:
      - type: content_matches
        params:
          pattern: "(?i)(date|time|day)"
"##;

#[test]
fn progressive_verification_across_turns() {
    let case = promptkit(&spec_doc(PROGRESSIVE));
    let good = turns(vec![
        (
            "I need help with my order",
            Reply::text("Sure, which ORDER?"),
        ),
        (
            "Order #12345",
            Reply::text("Order #12345 is in transit.")
                .call(tool("check_order_status", json!({"id": "12345"}))),
        ),
        ("When will it arrive?", Reply::text("Expected on Friday.")),
    ]);
    let report = case.scenario.evaluate(&good);
    assert_verdicts(
        &report,
        &[
            ("order", Pass),
            ("#12345", Pass),
            ("check_order_status", Pass),
            ("date|time|day", Pass),
        ],
    );
    let bad = turns(vec![
        ("I need help with my order", Reply::text("Hello!")),
        ("Order #12345", Reply::text("Looking at 12345.")),
        ("When will it arrive?", Reply::text("Soon.")),
    ]);
    let report = case.scenario.evaluate(&bad);
    assert_verdicts(
        &report,
        &[
            ("order", Fail),
            ("#12345", Fail),
            ("check_order_status", Fail),
            ("date|time|day", Fail),
        ],
    );
}

const BE_SPECIFIC: &str = r#"assertions:
# ❌ Too vague
- type: content_includes
  params:
    patterns: ["help"]

# ✅ Specific and meaningful
- type: content_includes
  params:
    patterns: ["Let me help you track your order"]
    message: "Should offer specific order tracking help"
"#;

const USE_MESSAGES: &str = r#"assertions:
# ❌ No message
- type: content_matches
  params:
    pattern: "(?i)email"

# ✅ Clear message for reports
- type: content_matches
  params:
    pattern: "(?i)email"
    message: "Should provide email contact information"
"#;

#[test]
fn best_practices_specific_patterns_and_messages() {
    // The two blocks show alternatives (❌ / ✅); here both sit in one turn.
    let case = promptkit(&in_a_turn(BE_SPECIFIC));
    let report = case.scenario.evaluate(&run(Reply::text("Happy to help!")));
    assert_verdicts(
        &report,
        &[
            ("reply contains \"help\"", Pass),
            ("Should offer specific order tracking help", Fail),
        ],
    );
    let report = case.scenario.evaluate(&run(Reply::text(
        "let me help you track your order: what is its number?",
    )));
    assert_verdicts(&report, &[("help", Pass), ("Should offer specific", Pass)]);

    // Without a message the report shows the check itself; with one, the message.
    let case = promptkit(&in_a_turn(USE_MESSAGES));
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Call us instead.")));
    assert_verdicts(
        &report,
        &[
            ("reply matches /(?i)email/", Fail),
            ("Should provide email contact information", Fail),
        ],
    );
}

const SUCCESS_AND_FAILURE: &str = r#"# Test success case
- role: user
  content: "Get the weather"
  assertions:
    - type: tools_called
      params:
        tools: ["get_weather"]

# Test failure case (should NOT call tool)
- role: user
  content: "What's the weather like generally?"
  assertions:
    - type: tools_not_called
      params:
        tools: ["get_weather"]
        message: "Should not call tool for general question"
"#;

#[test]
fn best_practices_success_and_failure_cases() {
    let case = promptkit(&turns_doc(SUCCESS_AND_FAILURE));
    let good = turns(vec![
        (
            "Get the weather",
            Reply::text("Sunny.").call(tool("get_weather", json!({}))),
        ),
        ("generally?", Reply::text("It varies by season.")),
    ]);
    assert_verdicts(
        &case.scenario.evaluate(&good),
        &[
            ("get_weather", Pass),
            ("Should not call tool for general question", Pass),
        ],
    );
    let bad = turns(vec![
        ("Get the weather", Reply::text("Sunny, I guess.")),
        (
            "generally?",
            Reply::text("Today: sunny.").call(tool("get_weather", json!({}))),
        ),
    ]);
    assert_verdicts(
        &case.scenario.evaluate(&bad),
        &[
            ("get_weather", Fail),
            ("Should not call tool for general question", Fail),
        ],
    );
}

const APPROPRIATE_TYPES: &str = r#"assertions:
# ❌ Using regex for simple text match
- type: content_matches
  params:
    pattern: "Paris"

# ✅ Using content_includes for simple text
- type: content_includes
  params:
    patterns: ["Paris"]

# ✅ Using regex for complex patterns
- type: content_matches
  params:
    pattern: "(?i)\\b(bonjour|hello|hi)\\b"
"#;

#[test]
fn best_practices_appropriate_types() {
    let case = promptkit(&in_a_turn(APPROPRIATE_TYPES));
    // content_matches is case-sensitive; content_includes is not.
    let report = case
        .scenario
        .evaluate(&run(Reply::text("BONJOUR! PARIS awaits.")));
    assert_verdicts(
        &report,
        &[
            ("reply matches /Paris/", Fail),
            ("reply contains \"Paris\"", Pass),
            ("bonjour|hello|hi", Pass),
        ],
    );
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Hi! Paris awaits.")));
    assert_passes(&report);
}

#[test]
fn troubleshooting_patterns() {
    // (the seed's `pattern:` line, a reply, whether it matches)
    let rows = [
        // "❌ May fail due to case or punctuation" / "✅ More robust"
        (r#"pattern: "Hello!""#, "hello there", false),
        (r#"pattern: "(?i)hello""#, "hello there", true),
        // "❌ Missing escape: matches any character" / "✅ Escaped literal dot"
        (r#"pattern: ".""#, "no dots here", true),
        (r#"pattern: "\\.""#, "no dots here", false),
        (r#"pattern: "\\.""#, "one. dot", true),
        // "❌ Unescaped dollar" (an end anchor: never matches "$100") / "✅ Escaped dollar sign"
        (r#"pattern: "$100""#, "It costs $100", false),
        (r#"pattern: "\\$100""#, "It costs $100", true),
        // Regex performance: the Rust regex engine is linear-time, so "(a+)+" is harmless.
        (
            r#"pattern: "(a+)+""#,
            "baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
            true,
        ),
        (r#"pattern: "\\ba+\\b""#, "a aa aaa", true),
        (
            r#"pattern: "word.*pattern.*word""#,
            "word then pattern then word",
            true,
        ),
    ];
    for (line, reply, matches) in rows {
        let case = promptkit(&pattern_doc(line));
        let report = case.scenario.evaluate(&run(Reply::text(reply)));
        let want = if matches { Pass } else { Fail };
        assert_eq!(
            report.verdicts[0].status,
            want,
            "{line} on {reply:?}:\n{}",
            table(&report)
        );
    }
    // "❌ Slow: lookahead/lookbehind": not supported by the RE2 family at all; the file is
    // refused where it is read, naming the problem (never a verdict that blames the reply).
    let err = load_error(
        SeedFormat::PromptKit,
        &pattern_doc(r#"pattern: "(?<=word)pattern(?=word)""#),
        "scenario.yaml",
    );
    assert!(
        err.contains("invalid regex `(?<=word)pattern(?=word)`")
            && err.contains("look-around, including look-ahead and look-behind, is not supported"),
        "{err}"
    );
    // As is an invalid pattern of `content_matches`.
    let err = load_error(
        SeedFormat::PromptKit,
        &turn_with("- {type: content_matches, params: {pattern: '(unclosed'}}\n"),
        "scenario.yaml",
    );
    assert!(err.contains("invalid regex `(unclosed`"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Format semantics (semantics.md §4), table-driven

/// One user turn with these assertions (YAML list items, at column 0).
fn turn_with(items: &str) -> String {
    in_a_turn(&format!("assertions:\n{items}"))
}

/// One user turn, and these conversation assertions (YAML list items, at column 0).
fn conversation_with(items: &str) -> String {
    conversation_doc(&format!("conversation_assertions:\n{items}"))
}

fn errored(name: &str) -> Call {
    tool(name, json!({})).failed(json!("503 upstream unavailable"))
}

#[test]
fn promptkit_semantics() {
    let rows = vec![
        Row {
            what: "content_includes: case-insensitive plain substring (\"Pari\" matches \"Paris\")",
            case: turn_with("- {type: content_includes, params: {patterns: [pari, CAPITAL]}}\n"),
            run: run(Reply::text("Paris is the capital")),
            expect: vec![("pari", Pass), ("CAPITAL", Pass)],
        },
        Row {
            what: "content_includes: every pattern is required",
            case: turn_with("- {type: content_includes, params: {patterns: [a1, b2]}}\n"),
            run: run(Reply::text("only A1 here")),
            expect: vec![("a1", Pass), ("b2", Fail)],
        },
        Row {
            what: "content_includes: an empty list fails (misconfigured)",
            case: turn_with("- {type: content_includes, params: {patterns: []}}\n"),
            run: run(Reply::text("anything")),
            expect: vec![("misconfigured: no `patterns` to look for", Fail)],
        },
        Row {
            what: "content_matches: case-sensitive unless (?i)",
            case: turn_with(
                "- {type: content_matches, params: {pattern: 'order \\d+'}}\n- {type: content_matches, params: {pattern: '(?i)order \\d+'}}\n",
            ),
            run: run(Reply::text("Order 42 shipped")),
            expect: vec![("/order", Fail), ("(?i)order", Pass)],
        },
        Row {
            what: "content_matches: unanchored, with (?m) and (?s) flags",
            case: turn_with(
                "- {type: content_matches, params: {pattern: '^total'}}\n- {type: content_matches, params: {pattern: '(?m)^total'}}\n- {type: content_matches, params: {pattern: '(?s)items.total'}}\n",
            ),
            run: run(Reply::text("items\ntotal: 3")),
            expect: vec![("/^total/", Fail), ("(?m)^total", Pass), ("(?s)items", Pass)],
        },
        Row {
            what: "turn-level tools_called does not count a call whose result is an error",
            case: turn_with("- {type: tools_called, params: {tools: [pay]}}\n"),
            run: run(Reply::text("").call(errored("pay"))),
            expect: vec![("pay", Fail)],
        },
        Row {
            what: "conversation-level tools_called counts it",
            case: conversation_with("- {type: tools_called, params: {tools: [pay]}}\n"),
            run: run(Reply::text("").call(errored("pay"))),
            expect: vec![("pay", Pass)],
        },
        Row {
            what: "tools_not_called counts any call, errored or not (in a turn too)",
            case: turn_with("- {type: tools_not_called, params: {tools: [pay]}}\n"),
            run: run(Reply::text("").call(errored("pay"))),
            expect: vec![("pay", Fail)],
        },
        Row {
            what: "turn-level tools_called: only the current turn",
            case: turns_doc(
                "- role: user\n  content: a\n- role: user\n  content: b\n  assertions:\n    - {type: tools_called, params: {tools: [lookup]}}\n",
            ),
            run: turns(vec![
                ("a", Reply::text("").call(tool("lookup", json!({})))),
                ("b", Reply::text("done")),
            ]),
            expect: vec![("lookup", Fail)],
        },
        Row {
            what: "conversation assertions see every assistant message",
            case: turns_doc(
                "- role: user\n  content: a\n- role: user\n  content: b\n",
            )
            .replace(
                "spec:\n",
                "spec:\n  conversation_assertions:\n    - {type: content_includes, params: {patterns: [refund]}}\n    - {type: tools_called, params: {tools: [lookup]}}\n",
            ),
            run: turns(vec![
                ("a", Reply::text("Refund approved.").call(tool("lookup", json!({})))),
                ("b", Reply::text("Anything else?")),
            ]),
            expect: vec![("refund", Pass), ("lookup", Pass)],
        },
        Row {
            what: "conversation assertions exclude the user's messages",
            case: conversation_with("- {type: content_includes, params: {patterns: [hello]}}\n"),
            run: run(Reply::text("Hi! How can I help?")),
            expect: vec![("hello", Fail)],
        },
        Row {
            what: "expected_args: compared by rendering, 10 equals \"10\" both ways",
            case: turn_with(
                "- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {n: 10, s: \"10\", b: true}}}\n",
            ),
            run: run(Reply::text("").call(tool("t", json!({"n": "10", "s": 10, "b": "true"})))),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "expected_args: a whole float renders like an integer (Go's %v)",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {n: 10, m: 2.5}}}\n"),
            run: run(Reply::text("").call(tool("t", json!({"n": 10.0, "m": 2.5})))),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "expected_args: a different rendering fails (\"10.0\" is not \"10\")",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {n: 10}}}\n"),
            run: run(Reply::text("").call(tool("t", json!({"n": "10.0"})))),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "expected_args: \"007\" is not how 7 renders",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {n: '007'}}}\n"),
            run: run(Reply::text("").call(tool("t", json!({"n": 7})))),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "expected_args: exact text, no substring or case folding",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {city: Lisbon}}}\n"),
            run: run(Reply::text("").call(tool("t", json!({"city": "lisbon"})))),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "expected_args: regex characters in the value are literal",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {q: 'a.b'}}}\n"),
            run: run(Reply::text("").call(tool("t", json!({"q": "axb"})))),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "expected_args: null means present, any value (null included)",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {a: null}}}\n"),
            run: run(Reply::text("").call(tool("t", json!({"a": null})))),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "args_match: a regex on the rendered value",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, args_match: {n: '^1\\d$'}}}\n"),
            run: run(Reply::text("").call(tool("t", json!({"n": 12})))),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "tool_calls_with_args: every call must satisfy every constraint",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {a: 1}}}\n"),
            run: run(Reply::text("")
                .call(tool("t", json!({"a": 1})))
                .call(tool("t", json!({"a": 2})))),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "tool_calls_with_args: a tool never called fails",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {a: 1}}}\n"),
            run: run(Reply::text("").call(tool("u", json!({"a": 1})))),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "tool_calls_with_args: extra arguments are fine",
            case: turn_with("- {type: tool_calls_with_args, params: {tool_name: t, expected_args: {a: 1}}}\n"),
            run: run(Reply::text("").call(tool("t", json!({"a": 1, "b": 2})))),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "agent_response_contains: case-sensitive",
            case: turn_with(
                "- {type: agent_response_contains, params: {agent: a2a__x__y, contains: Paris}}\n",
            ),
            run: run(Reply::text("Paris").call(tool("a2a__x__y", json!({})).result(json!("paris")))),
            expect: vec![("a2a__x__y", Fail)],
        },
        Row {
            what: "agent_invoked (conversation): min_calls per agent",
            case: conversation_with(
                "- {type: agent_invoked, params: {agent_names: [a2a__x__y], min_calls: 2}}\n",
            ),
            run: run(Reply::text("").call(tool("a2a__x__y", json!({})))),
            expect: vec![("a2a__x__y", Fail)],
        },
        Row {
            what: "agent_not_invoked: other agents are fine",
            case: turn_with("- {type: agent_not_invoked, params: {agents: [a2a__admin__run]}}\n"),
            run: run(Reply::text("").call(tool("a2a__x__y", json!({})))),
            expect: vec![("a2a__admin__run", Pass)],
        },
        Row {
            what: "guardrail_triggered: `expected` is the documented parameter",
            case: turn_with(
                "- {type: guardrail_triggered, params: {guardrail: pii, expected: false}}\n- {type: guardrail_triggered, params: {guardrail: pii}}\n",
            ),
            run: run(Reply::text("").guardrail(Guardrail::triggered("pii"))),
            expect: vec![("not triggered", Fail), ("guardrail `pii` triggered", Pass)],
        },
        Row {
            what: "guardrail_triggered without a name: any guardrail",
            case: turn_with("- {type: guardrail_triggered, params: {}}\n- {type: guardrail_triggered}\n"),
            run: run(Reply::text("").guardrail(Guardrail::triggered("max_length"))),
            expect: vec![("some guardrail", Pass), ("some guardrail", Pass)],
        },
        Row {
            what: "a guardrail that ran without firing is not triggered",
            case: turn_with("- {type: guardrail_triggered, params: {guardrail: pii}}\n"),
            run: run(Reply::text("").guardrail(Guardrail::passed("pii"))),
            expect: vec![("pii", Fail)],
        },
        Row {
            what: "state_is: the state after the turn",
            case: turns_doc(
                "- role: user\n  content: a\n  assertions:\n    - {type: state_is, params: {state: intake}}\n- role: user\n  content: b\n  assertions:\n    - {type: state_is, params: {state: intake}}\n",
            ),
            run: turns(vec![
                ("a", Reply::text("").workflow(Workflow::in_state("intake"))),
                ("b", Reply::text("").workflow(Workflow::in_state("billing").transitions(["billing"]))),
            ]),
            expect: vec![("intake", Pass), ("intake", Fail)],
        },
        Row {
            what: "workflow checks fail when no state was reported",
            case: turn_with(
                "- {type: state_is, params: {state: s}}\n- {type: transitioned_to, params: {state: s}}\n- {type: workflow_complete}\n",
            ),
            run: run(Reply::text("plain")),
            expect: vec![("state is", Fail), ("transitioned", Fail), ("complete", Fail)],
        },
        Row {
            what: "a system turn is context, not a turn to check",
            case: turns_doc(
                "- role: system\n  content: Answer in French.\n- role: user\n  content: hi\n  assertions:\n    - {type: content_includes, params: {patterns: [bonjour]}}\n",
            ),
            run: run(Reply::text("Bonjour !")),
            expect: vec![("bonjour", Pass)],
        },
    ];
    run_table(SeedFormat::PromptKit, "scenario.yaml", rows);
}

#[test]
fn forbidden_agents_are_named_once() {
    let case = promptkit(&turn_with(
        "- {type: agent_not_invoked, params: {agents: [a2a__x__run, a2a__y__run]}}\n",
    ));
    let report = case.scenario.evaluate(&run(Reply::text("")
        .call(tool("a2a__x__run", json!({})))
        .call(tool("a2a__y__run", json!({})))
        .call(tool("a2a__x__run", json!({"again": true})))));
    assert_reason(
        &report,
        "agents not invoked",
        Fail,
        &["forbidden agents were invoked: a2a__x__run, a2a__y__run |"],
    );
}

// ---------------------------------------------------------------------------------------------
// Malformed files

/// The seed's "Assertion Structure" is a template: its `type: assertion_name` is a placeholder,
/// which the loader rejects by name.
const STRUCTURE_TEMPLATE: &str = r#"assertions:
  - type: assertion_name          # Required: Assertion type
    params:                       # Required: Type-specific parameters
      param1: value1
      param2: value2
    message: "Description"        # Optional: Human-readable description
"#;

#[test]
fn malformed_scenarios_name_the_file_and_the_path() {
    let err = |text: &str| load_error(SeedFormat::PromptKit, text, "suite/weather.yaml");
    let types = crate::errors::PROMPTKIT_TYPES;
    assert_eq!(
        err(&in_a_turn(STRUCTURE_TEMPLATE)),
        format!(
            "suite/weather.yaml: at spec.turns[0].assertions[0].type: unknown type \
             `assertion_name`, expected one of {types}"
        )
    );
    // Unknown fields.
    assert_eq!(
        err(&turn_with(
            "- {type: tool_calls_with_args, params: {tool_name: t, expected_arguments: {a: 1}}}\n"
        )),
        "suite/weather.yaml: at spec.turns[0].assertions[0].params.expected_arguments: unknown \
         field `expected_arguments`, expected one of `message`, `tool_name`, `expected_args`, \
         `required_args`, `args_match`, `result_includes`, `result_matches`, `no_error`"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}  turns: [{{role: user, content: hi}}]\n  assertions: []\n"
        )),
        "suite/weather.yaml: at spec.assertions: unknown field `assertions`, expected one of \
         `task_type`, `description`, `turns`, `steps`, `conversation_assertions`"
    );
    // Wrong types.
    assert_eq!(
        err(&turn_with(
            "- {type: content_includes, params: {patterns: Paris}}\n"
        )),
        "suite/weather.yaml: at spec.turns[0].assertions[0].params.patterns: expected an array, \
         got a string (\"Paris\")"
    );
    assert_eq!(
        err(&turn_with(
            "- {type: tool_calls_with_args, params: {tool_name: t, args_match: {a: 5}}}\n"
        )),
        "suite/weather.yaml: at spec.turns[0].assertions[0].params.args_match.a: expected a \
         regex, got a number (5)"
    );
    assert_eq!(
        err(&turn_with(
            "- {type: guardrail_triggered, params: {guardrail: pii, expected: \"yes\"}}\n"
        )),
        "suite/weather.yaml: at spec.turns[0].assertions[0].params.expected: expected true or \
         false, got a string (\"yes\")"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}  turns:\n    - role: assistant\n      content: hi\n"
        )),
        "suite/weather.yaml: at spec.turns[0].role: expected `user` or `system`, got `assistant`"
    );
    // Not YAML at all: the line and column.
    let e = err("kind: Scenario\nspec: [\n");
    assert!(e.starts_with("suite/weather.yaml: at line "), "{e}");
    assert!(e.contains("not valid YAML"), "{e}");
}

/// PromptKit's `transitioned_to` "inspects the accumulated transition history": in a turn it
/// sees the transitions of every turn so far, an earlier turn's included.
#[test]
fn transitioned_to_sees_the_accumulated_history() {
    let case = promptkit(&turns_doc(
        "- role: user\n  content: a\n- role: user\n  content: b\n  assertions:\n    - {type: transitioned_to, params: {state: specialist}}\n",
    ));
    let report = case.scenario.evaluate(&turns(vec![
        (
            "a",
            Reply::text("").workflow(Workflow::in_state("specialist").transitions(["specialist"])),
        ),
        (
            "b",
            Reply::text("").workflow(Workflow::in_state("specialist")),
        ),
    ]));
    assert_verdicts(&report, &[("specialist", Pass)]);
}

// ---------------------------------------------------------------------------------------------
// The whole assertion registry of PromptKit's runtime (`runtime/evals/handlers`), with the
// parameters its handlers read: a row per rule, each with a run that passes and one that
// fails.

fn validation_error(name: &str) -> Call {
    tool(name, json!({"date": "soon"})).failed_with(
        agent_test_runtime::model::ToolErrorKind::Validation,
        json!("date: not a date"),
    )
}

fn execution_error(name: &str) -> Call {
    tool(name, json!({})).failed_with(
        agent_test_runtime::model::ToolErrorKind::Execution,
        json!("upstream timeout"),
    )
}

#[test]
fn promptkit_registry() {
    let rows = vec![
        // Content.
        Row {
            what: "content_includes_any: some assistant message has some pattern",
            case: conversation_with(
                "- {type: content_includes_any, params: {patterns: [refund, credit]}}\n",
            ),
            run: run(Reply::text("A CREDIT note is on its way.")),
            expect: vec![("text", Pass)],
        },
        Row {
            what: "content_includes_any: none of them anywhere fails",
            case: turn_with("- {type: contains_any, params: {patterns: [refund, credit]}}\n"),
            run: run(Reply::text("Sorry, no.")),
            expect: vec![("text", Fail)],
        },
        Row {
            what: "content_not_includes: substring, case-insensitive, every assistant message so far",
            case: turns_doc(
                "- role: user\n  content: a\n- role: user\n  content: b\n  assertions:\n    - {type: content_not_includes, params: {patterns: [guarantee]}}\n",
            ),
            run: turns(vec![
                ("a", Reply::text("We GUARANTEE it.")),
                ("b", Reply::text("Anything else?")),
            ]),
            expect: vec![("text", Fail)],
        },
        Row {
            what: "content_excludes with match_mode word_boundary: a longer word is fine",
            case: turn_with(
                "- {type: content_excludes, params: {patterns: [sure], match_mode: word_boundary}}\n- {type: content_not_includes, params: {patterns: [sure]}}\n",
            ),
            run: run(Reply::text("Let me make sure of it.")),
            expect: vec![("text", Fail), ("text", Fail)],
        },
        Row {
            what: "content_excludes with match_mode word_boundary: a longer word passes",
            case: turn_with(
                "- {type: content_excludes, params: {patterns: [sure], match_mode: word_boundary}}\n",
            ),
            run: run(Reply::text("Let me ensure it.")),
            expect: vec![("text", Pass)],
        },
        Row {
            what: "content_matches with expect_match: false passes when nothing matches",
            case: turn_with(
                "- {type: content_matches, params: {pattern: '(?i)guarantee', expect_match: false}}\n- {type: regex, params: {pattern: '(?i)guarantee', expect_match: false}}\n",
            ),
            run: run(Reply::text("We guarantee it.")),
            expect: vec![("text", Fail), ("text", Fail)],
        },
        Row {
            what: "min_length / max_length count bytes, as Go's len()",
            case: turn_with(
                "- {type: min_length, params: {min: 5}}\n- {type: max_length, params: {max_characters: 4}}\n",
            ),
            run: run(Reply::text("café")),
            expect: vec![("length", Pass), ("length", Fail)],
        },
        Row {
            what: "max_length with max_tokens: four characters a token",
            case: turn_with("- {type: max_length, params: {max: 1000, max_tokens: 2}}\n"),
            run: run(Reply::text("twelve chars")),
            expect: vec![("length", Fail)],
        },
        // JSON.
        Row {
            what: "json_valid: the reply text",
            case: turn_with(
                "- {type: json_valid}\n- {type: valid_json}\n- {type: is_valid_json, params: {extract_json: true}}\n",
            ),
            run: run(Reply::text(r#"Here: {"a": 1}"#)),
            expect: vec![("jmespath", Fail), ("jmespath", Fail), ("jmespath", Pass)],
        },
        Row {
            what: "json_valid: allow_wrapped reads a ```json block, else the whole reply",
            case: turn_with("- {type: json_valid, params: {allow_wrapped: true}}\n"),
            run: run(Reply::text("```json\n{\"a\": 1}\n```")),
            expect: vec![("jmespath", Pass)],
        },
        Row {
            what: "json_schema with extract_json",
            case: turn_with(
                "- {type: json_schema, params: {extract_json: true, schema: {type: object, required: [id]}}}\n",
            ),
            run: run(Reply::text(r#"Done: {"name": "x"}"#)),
            expect: vec![("schema", Fail)],
        },
        Row {
            what: "json_path is JMESPath: a filter projection equals the expected list",
            case: turn_with(
                "- {type: json_path, params: {expression: \"locations[?state == 'WA'].name\", expected: [Seattle, Bellevue]}}\n",
            ),
            run: run(Reply::text(
                r#"{"locations": [{"name": "Seattle", "state": "WA"}, {"name": "Bellevue", "state": "WA"}, {"name": "Portland", "state": "OR"}]}"#,
            )),
            expect: vec![("jmespath", Pass)],
        },
        Row {
            what: "json_path: contains, min/max, min_results/max_results",
            case: turn_with(
                "- {type: json_path, params: {expression: items, contains: [b], min_results: 2, max_results: 3}}\n- {type: json_path, params: {jmespath_expression: total, min: 10, max: 20}}\n",
            ),
            run: run(Reply::text(
                r#"{"items": ["a", "b", "c", "d"], "total": 25}"#,
            )),
            expect: vec![("jmespath", Fail), ("jmespath", Fail)],
        },
        Row {
            what: "json_path: contains, min/max, min_results/max_results passing",
            case: turn_with(
                "- {type: json_path, params: {expression: items, contains: [b], min_results: 2, max_results: 3}}\n- {type: json_path, params: {jmespath_expression: total, min: 10, max: 20}}\n",
            ),
            run: run(Reply::text(r#"{"items": ["a", "b"], "total": 15.5}"#)),
            expect: vec![("jmespath", Pass), ("jmespath", Pass)],
        },
        Row {
            what: "json_path with only an expression: the reply is JSON (a null result passes, as in PromptKit)",
            case: turn_with("- {type: json_path, params: {expression: missing.field}}\n"),
            run: run(Reply::text(r#"{"a": 1}"#)),
            expect: vec![("jmespath", Pass)],
        },
        Row {
            what: "json_path on a reply that is not JSON fails",
            case: turn_with("- {type: json_path, params: {expression: a, expected: 1}}\n"),
            run: run(Reply::text("a = 1")),
            expect: vec![("jmespath", Fail)],
        },
        // Tools.
        Row {
            what: "tools_called: min_calls and max_calls per tool",
            case: turn_with(
                "- {type: tools_called, params: {tool_names: [search, book], min_calls: 1, max_calls: 1}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("search", json!({})))
                .call(tool("search", json!({})))
                .call(tool("book", json!({})))),
            expect: vec![("search", Fail), ("book", Pass)],
        },
        Row {
            what: "tools_called: a validation error counts only with ignore_validation",
            case: turn_with(
                "- {type: tools_called, params: {tools: [book]}}\n- {type: tool_called, params: {tools: [book], ignore_validation: true}}\n",
            ),
            run: run(Reply::text("").call(validation_error("book"))),
            expect: vec![("tools called", Fail), ("tool", Pass)],
        },
        Row {
            what: "tools_called: ignore_validation does not count a tool that ran and failed",
            case: turn_with(
                "- {type: tools_called, params: {tools: [book], ignore_validation: true}}\n",
            ),
            run: run(Reply::text("").call(execution_error("book"))),
            expect: vec![("tool", Fail)],
        },
        Row {
            what: "tools_called: require_args counts only calls with arguments",
            case: turn_with(
                "- {type: tools_called, params: {tools: [search], require_args: true}}\n",
            ),
            run: run(Reply::text("").call(tool("search", json!({})))),
            expect: vec![("tool", Fail)],
        },
        Row {
            what: "tools_called_session: min_calls over the session, errored calls included",
            case: conversation_with(
                "- {type: tools_called_session, params: {tool_names: [pay], min_calls: 2}}\n",
            ),
            run: run(Reply::text("")
                .call(errored("pay"))
                .call(tool("pay", json!({})))),
            expect: vec![("pay", Pass)],
        },
        Row {
            what: "tools_not_called_session: any call anywhere",
            case: conversation_with(
                "- {type: tools_not_called_session, params: {tool_names: [delete]}}\n",
            ),
            run: run(Reply::text("").call(tool("delete", json!({})))),
            expect: vec![("delete", Fail)],
        },
        Row {
            what: "tool_args: some call with every argument rendered equal; null means null",
            case: turn_with(
                "- {type: tool_args, params: {tool_name: t, expected_args: {n: 10, note: null}}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("t", json!({"n": 9, "note": null})))
                .call(tool("t", json!({"n": "10", "note": null})))),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "tool_args: null is not presence",
            case: turn_with(
                "- {type: tool_args, params: {tool_name: t, expected_args: {note: null}}}\n",
            ),
            run: run(Reply::text("").call(tool("t", json!({"note": "x"})))),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "tool_args_session: across the conversation",
            case: conversation_with(
                "- {type: tool_args_session, params: {tool_name: t, expected_args: {a: x}}}\n",
            ),
            run: run(Reply::text("").call(tool("t", json!({"a": "y"})))),
            expect: vec![("`t`", Fail)],
        },
        Row {
            what: "tool_args_excluded_session: one check per excluded argument",
            case: conversation_with(
                "- {type: tool_args_excluded_session, params: {tool_name: pay, excluded_args: {currency: XXX, amount: 0}}}\n",
            ),
            run: run(Reply::text("").call(tool("pay", json!({"currency": "EUR", "amount": 0.0})))),
            expect: vec![("amount", Fail), ("currency", Pass)],
        },
        Row {
            what: "tools_not_called_with_args: forbidden_args lists values",
            case: conversation_with(
                "- {type: tools_not_called_with_args, params: {tool_name: pay, forbidden_args: {currency: [XXX, ZZZ]}}}\n",
            ),
            run: run(Reply::text("").call(tool("pay", json!({"currency": "ZZZ"})))),
            expect: vec![("pay", Fail)],
        },
        Row {
            what: "tool_calls_with_args without a tool name: every call must satisfy the constraints",
            case: turn_with(
                "- {type: tool_calls_with_args, params: {args_match: {id: '^ORD-'}}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("a", json!({"id": "ORD-1"})))
                .call(tool("b", json!({"id": "X-2"})))),
            expect: vec![("any tool", Fail)],
        },
        Row {
            what: "tool_calls_with_args: result_includes, result_matches and no_error",
            case: turn_with(
                "- {type: tool_calls_with_args, params: {tool_name: search, result_includes: [lisbon], result_matches: 'H-\\d+'}}\n- {type: tool_calls_with_args, params: {tool_name: book, no_error: true}}\n",
            ),
            run: run(Reply::text("")
                .call(
                    tool("search", json!({}))
                        .result(json!({"hotels": [{"id": "H-7", "city": "Lisbon"}]})),
                )
                .call(execution_error("book"))),
            expect: vec![("search", Pass), ("book", Fail)],
        },
        Row {
            what: "tool_call_count: one tool or every call",
            case: turn_with(
                "- {type: tool_call_count, params: {tool: search, max: 1}}\n- {type: tool_call_count, params: {min: 3}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("search", json!({})))
                .call(tool("search", json!({})))
                .call(tool("book", json!({})))),
            expect: vec![("search", Fail), ("any tool", Pass)],
        },
        Row {
            what: "tool_call_sequence: an ordered subsequence",
            case: turn_with("- {type: tool_call_sequence, params: {sequence: [search, book]}}\n"),
            run: run(Reply::text("")
                .call(tool("book", json!({})))
                .call(tool("search", json!({})))),
            expect: vec![("tool sequence", Fail)],
        },
        Row {
            what: "tool_call_chain: each step's call meets its constraints",
            case: turn_with(
                "- type: tool_call_chain\n  params:\n    steps:\n      - {tool: search, result_includes: [H-7]}\n      - {tool: book, args_match: {hotel_id: '^H-7$'}, no_error: true}\n",
            ),
            run: run(Reply::text("")
                .call(tool("search", json!({})).result(json!("found H-7")))
                .call(tool("book", json!({"hotel_id": "H-7"})).result(json!("ok")))),
            expect: vec![("tool chain", Pass)],
        },
        Row {
            what: "tool_call_chain: the next call of a step's tool must meet it (a later one does not help)",
            case: turn_with(
                "- type: tool_call_chain\n  params:\n    steps:\n      - {tool: search}\n      - {tool: book, args_match: {hotel_id: '^H-7$'}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("search", json!({})))
                .call(tool("book", json!({"hotel_id": "H-9"})))
                .call(tool("book", json!({"hotel_id": "H-7"})))),
            expect: vec![("tool chain", Fail)],
        },
        Row {
            what: "tool_result_includes / tool_result_matches: occurrence calls must match",
            case: turn_with(
                "- {type: tool_result_includes, params: {tool: search, patterns: [lisbon, hotel], occurrence: 2}}\n- {type: tool_result_matches, params: {pattern: 'H-\\d'}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("search", json!({})).result(json!("Hotel in LISBON, H-7")))
                .call(tool("search", json!({})).result(json!("Hotel in Porto")))),
            expect: vec![("search", Fail), ("any tool", Pass)],
        },
        Row {
            what: "no_tool_errors: every call, or only some tools",
            case: turn_with(
                "- {type: no_tool_errors}\n- {type: no_tool_errors, params: {tools: [search]}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("search", json!({})))
                .call(execution_error("book"))),
            expect: vec![("no tool call failed", Fail), ("search", Pass)],
        },
        Row {
            what: "latency_budget: max_ms",
            case: turn_with(
                "- {type: latency_budget, params: {max_ms: 5}}\n- {type: latency_budget, params: {max_ms: 50}}\n",
            ),
            run: run(Reply::text("ok")),
            expect: vec![("latency", Fail), ("latency", Pass)],
        },
        Row {
            what: "guardrail_triggered: validator_type and should_trigger, as the handler reads them",
            case: turn_with(
                "- {type: guardrail_triggered, params: {validator_type: pii, should_trigger: false}}\n- {type: guardrail_triggered, params: {validator: banned_words}}\n",
            ),
            run: run(Reply::text("")
                .guardrail(Guardrail::passed("pii"))
                .guardrail(Guardrail::triggered("banned_words"))),
            expect: vec![("pii", Pass), ("banned_words", Pass)],
        },
        // The other side of each rule above: a passing run where the row shows a failing one,
        // a failing run where it shows a passing one.
        Row {
            what: "content_not_includes: passes when no assistant message so far has the pattern",
            case: turns_doc(
                "- role: user\n  content: a\n- role: user\n  content: b\n  assertions:\n    - {type: content_not_includes, params: {patterns: [guarantee]}}\n",
            ),
            run: turns(vec![
                ("a", Reply::text("We cannot promise it.")),
                ("b", Reply::text("Anything else?")),
            ]),
            expect: vec![("text", Pass)],
        },
        Row {
            what: "content_matches with expect_match: false passes when the pattern is absent",
            case: turn_with(
                "- {type: content_matches, params: {pattern: '(?i)guarantee', expect_match: false}}\n- {type: regex, params: {pattern: '(?i)guarantee', expect_match: false}}\n",
            ),
            run: run(Reply::text("We will do our best.")),
            expect: vec![("text", Pass), ("text", Pass)],
        },
        Row {
            what: "min_length fails below the minimum (bytes)",
            case: turn_with("- {type: min_length, params: {min: 6}}\n"),
            run: run(Reply::text("café")),
            expect: vec![("length", Fail)],
        },
        Row {
            what: "json_schema with extract_json passes on JSON in prose that satisfies it",
            case: turn_with(
                "- {type: json_schema, params: {extract_json: true, schema: {type: object, required: [id]}}}\n",
            ),
            run: run(Reply::text(
                r#"Done: {"id": "RF-1", "name": "x"}. Anything else?"#,
            )),
            expect: vec![("schema", Pass)],
        },
        Row {
            what: "json_schema on the whole reply passes on a valid object",
            case: turn_with(
                "- {type: json_schema, params: {schema: {type: object, required: [id]}}}\n",
            ),
            run: run(Reply::text(r#"{"id": 7}"#)),
            expect: vec![("schema", Pass)],
        },
        Row {
            what: "tools_called_session: fewer calls than min_calls over the session fails",
            case: conversation_with(
                "- {type: tools_called_session, params: {tool_names: [pay], min_calls: 2}}\n",
            ),
            run: run(Reply::text("").call(tool("pay", json!({})))),
            expect: vec![("pay", Fail)],
        },
        Row {
            what: "tools_not_called_session: passes when the tool was never called",
            case: conversation_with(
                "- {type: tools_not_called_session, params: {tool_names: [delete]}}\n",
            ),
            run: turns(vec![
                ("a", Reply::text("").call(tool("search", json!({})))),
                ("b", Reply::text("").call(tool("book", json!({})))),
            ]),
            expect: vec![("delete", Pass)],
        },
        Row {
            what: "tool_args_session: passes when some call in the conversation has the arguments",
            case: conversation_with(
                "- {type: tool_args_session, params: {tool_name: t, expected_args: {a: x}}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("t", json!({"a": "y"})))
                .call(tool("t", json!({"a": "x", "b": 2})))),
            expect: vec![("`t`", Pass)],
        },
        Row {
            what: "tools_not_called_with_args: other values of the argument pass",
            case: conversation_with(
                "- {type: tools_not_called_with_args, params: {tool_name: pay, forbidden_args: {currency: [XXX, ZZZ]}}}\n",
            ),
            run: run(Reply::text("")
                .call(tool("pay", json!({"currency": "EUR"})))
                .call(tool("refund", json!({"currency": "ZZZ"})))),
            expect: vec![("pay", Pass)],
        },
        Row {
            what: "tool_call_sequence: the tools in order, other calls in between, passes",
            case: turn_with("- {type: tool_call_sequence, params: {sequence: [search, book]}}\n"),
            run: run(Reply::text("")
                .call(tool("search", json!({})))
                .call(tool("lookup", json!({})))
                .call(tool("book", json!({})))),
            expect: vec![("tool sequence", Pass)],
        },
        Row {
            what: "tool_result_matches: no call's result matches fails",
            case: turn_with("- {type: tool_result_matches, params: {pattern: 'H-\\d'}}\n"),
            run: run(
                Reply::text("").call(tool("search", json!({})).result(json!("Hotel in Porto")))
            ),
            expect: vec![("any tool", Fail)],
        },
        Row {
            what: "guardrail_triggered with should_trigger: false fails when the validator fired",
            case: turn_with(
                "- {type: guardrail_triggered, params: {validator_type: pii, should_trigger: false}}\n",
            ),
            run: run(Reply::text("").guardrail(Guardrail::triggered("pii"))),
            expect: vec![("pii", Fail)],
        },
        Row {
            what: "guardrail_triggered with should_trigger: true fails when it did not fire",
            case: turn_with(
                "- {type: guardrail_triggered, params: {validator_type: banned_words, should_trigger: true}}\n",
            ),
            run: run(Reply::text("").guardrail(Guardrail::passed("banned_words"))),
            expect: vec![("banned_words", Fail)],
        },
    ];
    run_table(SeedFormat::PromptKit, "scenario.yaml", rows);
}

/// A required parameter missing or empty is a failing assertion with a reason; the file loads
/// and the other assertions still run. (PromptKit fails some of these and passes others:
/// `promptkit_s_empty_passes_are_failures_here`.)
#[test]
fn misconfigured_assertions_fail() {
    let case = promptkit(&turn_with(
        "- {type: content_includes, params: {patterns: []}}\n\
         - {type: content_matches}\n\
         - {type: tools_called, params: {tools: []}}\n\
         - {type: tools_not_called}\n\
         - {type: tool_args, params: {tool_name: t}}\n\
         - {type: tool_args_session, params: {expected_args: {a: 1}}}\n\
         - {type: tool_call_count, params: {tool: t}}\n\
         - {type: tool_call_sequence, params: {sequence: []}}\n\
         - {type: tool_call_chain, params: {steps: [{result_includes: [x]}]}}\n\
         - {type: tool_result_includes, params: {patterns: [x], occurrence: 0}}\n\
         - {type: tools_called_session, params: {tool_names: []}}\n\
         - {type: content_not_includes, params: {patterns: []}}\n\
         - {type: json_schema}\n\
         - {type: json_path, params: {expected: 1}}\n\
         - {type: latency_budget}\n\
         - {type: min_length, params: {min: 0}}\n\
         - {type: max_length}\n\
         - {type: agent_invoked, params: {min_calls: 1}}\n\
         - {type: agent_response_contains, params: {agent: a}}\n\
         - {type: state_is}\n\
         - {type: tool_calls_with_args}\n\
         - {type: tool_args_excluded_session, params: {tool_name: t, excluded_args: {}}}\n\
         - {type: content_includes, params: {patterns: [hello]}}\n",
    ));
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Hello!").call(tool("t", json!({"a": 1})))));
    let expected = [
        "content_includes (misconfigured: no `patterns` to look for)",
        "content_matches (misconfigured: no `pattern`)",
        "tools_called (misconfigured: no `tools` named)",
        "tools_not_called (misconfigured: no `tools` named)",
        "tool_args (misconfigured: no `expected_args` to compare)",
        "tool_args_session (misconfigured: no `tool_name`)",
        "tool_call_count (misconfigured: neither `min` nor `max` is given)",
        "tool_call_sequence (misconfigured: an empty `sequence`)",
        "tool_call_chain (misconfigured: step 1 names no `tool`)",
        "tool_result_includes (misconfigured: `occurrence: 0` can never fail)",
        "tools_called_session (misconfigured: no `tool_names` named)",
        "content_not_includes (misconfigured: no `patterns` to look for)",
        "json_schema (misconfigured: no `schema` provided)",
        "json_path (misconfigured: no `expression`)",
        "latency_budget (misconfigured: no `max_ms`)",
        "min_length (misconfigured: `min` must be a positive number of characters)",
        "max_length (misconfigured: `max` must be a positive number of characters)",
        "agent_invoked (misconfigured: no `agents` named)",
        "agent_response_contains (misconfigured: `agent` and `contains` are both required)",
        "state_is (misconfigured: no `state`)",
        "tool_calls_with_args (misconfigured: no `tool_name` and no constraint)",
        "tool_args_excluded_session (misconfigured: `excluded_args` is empty)",
    ];
    assert_eq!(report.verdicts.len(), expected.len() + 1, "{report}");
    for (v, label) in report.verdicts.iter().zip(expected) {
        assert_eq!(v.label, label);
        assert_eq!(v.status, Fail, "{label}");
        assert!(v.reason.starts_with("misconfigured: "), "{}", v.reason);
    }
    // The rest of the suite still runs.
    let last = report.verdicts.last().unwrap();
    assert_eq!(
        (last.label.as_str(), last.status),
        (r#"reply contains "hello""#, Pass)
    );
    // A message labels the misconfigured assertion like any other.
    let labelled = promptkit(&turn_with(
        "- {type: content_matches, message: Should greet}\n",
    ));
    let report = labelled.scenario.evaluate(&run(Reply::text("Hello!")));
    assert_eq!(report.verdicts[0].label, "Should greet");
    assert_eq!(report.verdicts[0].reason, "misconfigured: no `pattern`");
}

/// The failure reasons of the registry's new checks say what went wrong.
#[test]
fn registry_failure_reasons() {
    let case = promptkit(&turn_with(
        "- {type: tool_call_chain, params: {steps: [{tool: search}, {tool: book, no_error: true}]}}\n\
         - {type: no_tool_errors}\n\
         - {type: json_path, params: {expression: 'length(items)', min: 3}}\n\
         - {type: tools_called, params: {tools: [book], ignore_validation: true}}\n",
    ));
    let report = case.scenario.evaluate(&run(Reply::text(r#"{"items": [1]}"#)
        .call(tool("search", json!({})))
        .call(execution_error("book"))));
    assert_reason(
        &report,
        "tool chain",
        Fail,
        &[
            "tool chain broken at step 2 (`book`): the call at position 1 did not match",
            r#"returned an error: "upstream timeout""#,
        ],
    );
    assert_reason(
        &report,
        "no tool call failed",
        Fail,
        &[
            "1 tool call failed: book",
            r#"`book` at position 1 failed (execution error): "upstream timeout""#,
        ],
    );
    assert_reason(
        &report,
        "JMESPath",
        Fail,
        &["`length(items)` gives 1: 1 is not valid against"],
    );
    assert_reason(
        &report,
        "tool `book` called (successful calls and validation errors only)",
        Fail,
        &["tool `book` was called, but every call failed in execution"],
    );
}

/// Five assertions PromptKit's handlers pass when their list is empty — the handler scores 1
/// ("empty sequence always passes", "empty chain always passes", "no patterns to check", "no
/// excluded_args to check", "no expected_args to check" in `runtime/evals/handlers`), and
/// neither the assertion wrapper nor the scenario schema refuses them. Each compared nothing,
/// so agent-test fails it: a deliberate divergence (docs/seed-formats.md).
#[test]
fn promptkit_s_empty_passes_are_failures_here() {
    let case = promptkit(&turn_with(
        "- {type: tool_call_sequence, params: {sequence: []}}\n\
         - {type: tool_call_chain, params: {steps: []}}\n\
         - {type: content_not_includes, params: {patterns: []}}\n\
         - {type: tools_not_called_with_args, params: {tool_name: t}}\n\
         - {type: tool_args_session, params: {tool_name: t}}\n",
    ));
    let report = case
        .scenario
        .evaluate(&run(Reply::text("Hello!").call(tool("t", json!({"a": 1})))));
    let got: Vec<_> = report
        .verdicts
        .iter()
        .map(|v| (v.status, v.reason.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Fail, "misconfigured: an empty `sequence`"),
            (Fail, "misconfigured: an empty `steps` chain"),
            (Fail, "misconfigured: no `patterns` to look for"),
            (Fail, "misconfigured: no `excluded_args` to look for"),
            (Fail, "misconfigured: no `expected_args` to compare"),
        ]
    );
}
