//! `agent_test_files!`: a test per case of seed-format files, without an agent when every case
//! carries its recorded run.

use agent_test::__private::FileCases;
use agent_test::Suite;
use agent_test::agent::agent_fn;
use agent_test::check::Status;
use agent_test::model::Reply;
use agent_test::prelude::*;
use agent_test::run_file_case;
use serde_json::Value;

agent_test_files!("tests/integration/cases/*.jsonl");

/// The generated tests are ordinary functions: the two cases of `recorded.jsonl`.
#[test]
fn each_case_is_a_test_named_after_file_and_case() {
    let _: fn() = recorded__recorded_1;
    let _: fn() = recorded__recorded_2;
}

// The newer vocabulary as `files "..."` reads and runs it: the generated test is
// `FileCases::new(include_str!(file), file)` and `test_file_case`, which loads the case and runs
// it with `run_file_case` (against the suite's agent, unless the case carries its run).

/// A PromptKit file using the registry's types: JMESPath `json_path`, `content_includes_any`,
/// `tools_not_called_with_args`, `tool_call_sequence`, and a misconfigured `content_matches`.
static PROMPTKIT: FileCases = FileCases::new(
    "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata:\n  name: order\nspec:\n  turns:\n    - role: user\n      content: Order status?\n      assertions:\n        - {type: json_path, params: {expression: \"items[?qty > `1`].sku\", expected: [A]}}\n        - {type: content_includes_any, params: {patterns: [shipped, delivered]}}\n        - {type: tools_not_called_with_args, params: {tool_name: lookup_order, forbidden_args: {order_id: [ORD-0]}}}\n        - {type: tool_call_sequence, params: {sequence: [lookup_order]}}\n        - {type: content_matches}\n",
    "cases/order.yaml",
);

/// An agent that looks order `id` up and answers with JSON whose items are `items`.
fn order_agent(id: &'static str, items: Value) -> Suite {
    Suite::new().agent(agent_fn(move |_r| {
        let items = items.clone();
        async move {
            Reply::text(json!({"status": "shipped", "items": items}).to_string()).call(
                agent_test::model::Call::tool("lookup_order", json!({"order_id": id})),
            )
        }
    }))
}

#[tokio::test]
async fn promptkit_registry_types_through_files() {
    let case = PROMPTKIT
        .get(0)
        .expect("the file loads, the misconfigured assertion included");
    let statuses = |report: &agent_test::report::Report| -> Vec<(String, Status)> {
        report
            .verdicts
            .iter()
            .map(|v| (v.label.clone(), v.status))
            .collect()
    };
    let good = run_file_case(
        order_agent(
            "ORD-7",
            json!([{"sku": "A", "qty": 2}, {"sku": "B", "qty": 1}]),
        ),
        case,
    )
    .await;
    let got = statuses(&good);
    assert_eq!(got.len(), 5, "{good}");
    assert!(got[..4].iter().all(|(_, s)| *s == Status::Pass), "{good}");
    // The misconfigured assertion fails alone, with why.
    assert_eq!(
        got[4],
        (
            "content_matches (misconfigured: no `pattern`)".to_owned(),
            Status::Fail
        )
    );
    assert_eq!(good.verdicts[4].reason, "misconfigured: no `pattern`");

    let bad = run_file_case(
        order_agent(
            "ORD-0",
            json!([{"sku": "A", "qty": 1}, {"sku": "B", "qty": 3}]),
        ),
        case,
    )
    .await;
    let got: Vec<Status> = statuses(&bad).into_iter().map(|(_, s)| s).collect();
    assert_eq!(
        got,
        [
            Status::Fail,
            Status::Pass,
            Status::Fail,
            Status::Pass,
            Status::Fail
        ],
        "{bad}"
    );
}

/// `files "..."` reads a MorganaBench file with the same loader: an `equality` value that is a
/// list is refused naming the place (a compile error on the pattern, in `agent_test!`).
#[test]
fn morganabench_list_equality_is_refused_through_files() {
    static LIST: FileCases = FileCases::new(
        r#"{"inputs": {"messages": [{"role": "user", "content": "Email Ana"}]}, "expectations": {"assertions": [{"assert_that": "tool_called", "tool": "send_email", "parameters": [{"param": "to", "matcher": {"match_as": "equality", "value": ["ana@example.com"]}}]}]}}"#,
        "cases/list.json",
    );
    assert_eq!(
        LIST.get(0).err().map(|e| e.to_string()).as_deref(),
        Some(
            "cases/list.json: at expectations.assertions[0].parameters[0].matcher.value: expected \
             a string, number or boolean (an `equality` value is `str | int | float | bool`), got \
             an array ([\"ana@example.com\"])"
        )
    );
}

/// A case that carries its run (MorganaBench `outputs`) is priced with the suite's `prices`,
/// as a live run is: its turns' costs say so (unknown here, and why — MorganaBench outputs
/// hold no token usage), never left unpriced as if the suite had no table.
#[tokio::test]
async fn a_recorded_case_is_priced_with_the_suites_prices() {
    use agent_test::report::prices::{Cost, Prices};
    static RECORDED: FileCases = FileCases::new(
        r#"{"inputs": {"messages": [{"role": "user", "content": "What's 2 + 2?"}]}, "expectations": {"assertions": [{"assert_that": "no_tool_called"}]}, "outputs": {"response": "4", "trace": []}}"#,
        "cases/recorded.jsonl",
    );
    let case = RECORDED.get(0).expect("the case");
    let unpriced = run_file_case(Suite::new(), case).await;
    assert_eq!(unpriced.transcript.turns[0].cost, None);
    let suite = Suite::new().prices(Prices::new().model("m", 1.0, 10.0).unnamed_as("m"));
    let priced = run_file_case(suite, case).await;
    assert!(priced.passed(), "{priced}");
    match &priced.transcript.turns[0].cost {
        Some(Cost::Unknown(why)) => assert!(why.contains("usage"), "{why}"),
        other => panic!("not priced: {other:?}"),
    }
}
