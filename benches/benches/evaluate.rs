//! Evaluation throughput: 10,000 recorded transcripts × 10 deterministic checks.
//!
//! ```text
//! cargo bench -p agent-test-benches --bench evaluate
//! ```
//!
//! Each sample evaluates all 100,000 (transcript, check) pairs; divan reports items (check
//! evaluations) per second. Two data sets: transcripts that pass every check (a green CI run)
//! and random ones where most checks fail (every failure builds its explanation: expected,
//! actual, violations, diffs).

use agent_test_benches::{mixed_transcripts, passing_transcripts};
use agent_test_runtime::check::{Expectation, IntoExpectation, Scope, Status};
use agent_test_runtime::evaluate;
use agent_test_runtime::model::Transcript;
use agent_test_runtime::model::{Call, Reply};
use agent_test_runtime::prelude::*;
use agent_test_runtime::scenario::Scenario;

fn main() {
    // The "passing" data set must really pass, or the figures would measure failures.
    for checks in [ten_checks(), ten_rich_checks()] {
        for t in passing_transcripts(100) {
            for v in evaluate(&t, &checks) {
                assert_eq!(v.status, Status::Pass, "{}: {}", v.label, v.reason);
            }
        }
    }
    divan::main();
}

/// Ten checks from the rest of the vocabulary, on the first turn: matchers with expressions
/// and dates, JSON fields, JSONPath, JSON Schema, a trajectory, tokens, results.
fn ten_rich_checks() -> Vec<Expectation> {
    let mut checks = vec![
        tool("process_refund")
            .arg("when", date("AT_TIME(DATE_ADD(TODAY(), 1, 'day'), '12:00')").tolerance_minutes(5))
            .label("tool(..).arg(\"when\", date(..))"),
        tool("lookup_order")
            .arg("order_id", all_of([regex(r"^ORD-\d{4}$"), not(contains("TEST"))]))
            .label("tool(..).arg(.., all_of(..))"),
        tool("process_refund").arg("amount", one_of([42.5, 21.25])).arg("note", optional("x")).label("one_of + optional"),
        field("refund.amount").is(42.5).label("field(\"refund.amount\")"),
        field("status").is_not("error").label("field(\"status\").is_not(..)"),
        json_path("$.items[*].sku").equals("B-2").label("json_path(..).equals(..)"),
        schema(json!({"type": "object", "required": ["status", "refund"], "properties": {"refund": {"type": "object"}}}))
            .label("schema(..)"),
        tokens().total_at_most(1000).label("tokens()"),
        trajectory([tool_call("process_refund"), tool_call("lookup_order").arg("order_id", any())])
            .superset()
            .label("trajectory(..).superset()"),
        tool("lookup_order").result(contains("42.5")).label("tool(..).result(..)"),
    ];
    for c in &mut checks {
        c.scope = Scope::Turn(0);
    }
    checks
}

const TRANSCRIPTS: usize = 10_000;

/// The ten checks, labelled as `agent_test!` labels them (with their source text).
fn ten_checks() -> Vec<Expectation> {
    vec![
        reply()
            .contains("refund")
            .label("reply().contains(\"refund\")"),
        reply()
            .not_contains("internal error")
            .label("reply().not_contains(\"internal error\")"),
        reply()
            .matches(r"ORD-\d{4}")
            .label("reply().matches(r\"ORD-\\d{4}\")"),
        tool("lookup_order")
            .arg("order_id", "ORD-9921")
            .label("tool(\"lookup_order\").arg(\"order_id\", \"ORD-9921\")"),
        no_tool("cancel_order").label("no_tool(\"cancel_order\")"),
        tool("process_refund")
            .at_most(1)
            .label("tool(\"process_refund\").at_most(1)"),
        tool("search_hotels")
            .at_position(0)
            .label("tool(\"search_hotels\").at_position(0)"),
        required_tools(["lookup_order", "process_refund"]).label("required_tools([..])"),
        forbidden_tools(["delete_account"]).label("forbidden_tools([..])"),
        tool_sequence(["lookup_order", "process_refund"]).label("tool_sequence([..])"),
    ]
}

fn bench(bencher: divan::Bencher, transcripts: &[Transcript], checks: &[Expectation]) {
    bencher
        .counter(divan::counter::ItemsCount::new(
            transcripts.len() * checks.len(),
        ))
        .bench_local(|| {
            for t in transcripts {
                divan::black_box(evaluate(t, checks));
            }
        });
}

/// Passing transcripts: every check passes.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn passing_10k_transcripts_x_10_checks(bencher: divan::Bencher) {
    bench(bencher, &passing_transcripts(TRANSCRIPTS), &ten_checks());
}

/// Random transcripts: about two thirds of the checks fail and explain why.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn mixed_10k_transcripts_x_10_checks(bencher: divan::Bencher) {
    bench(bencher, &mixed_transcripts(TRANSCRIPTS), &ten_checks());
}

/// The rest of the vocabulary on passing transcripts.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn passing_10k_transcripts_x_10_rich_checks(bencher: divan::Bencher) {
    bench(
        bencher,
        &passing_transcripts(TRANSCRIPTS),
        &ten_rich_checks(),
    );
}

/// Passing transcripts, each check scoped to the first turn.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn passing_turn_scope(bencher: divan::Bencher) {
    let mut checks = ten_checks();
    for c in &mut checks {
        c.scope = Scope::Turn(0);
    }
    bench(bencher, &passing_transcripts(TRANSCRIPTS), &checks);
}

/// The five checks of the per-case comparison (promptfoo's and deepeval's): a case-insensitive
/// contains, a regex, a JSON field, a tool called with an argument, a tool not called.
fn five_checks(order: &str) -> Vec<Expectation> {
    vec![
        reply().contains("Refund Issued").into_expectation(),
        reply().matches(r"\bORD-\d{6}\b").into_expectation(),
        field("refund.status").is("issued").into_expectation(),
        tool("process_refund")
            .arg("order_id", order)
            .into_expectation(),
        no_tool("cancel_order").into_expectation(),
    ]
}

/// A per-case transcript: a ~1 KB reply, a JSON body, two tool calls.
fn per_case_transcript(i: usize) -> (String, Transcript) {
    use agent_test_runtime::model::Turn;
    let order = format!("ORD-{:06}", 100_000 + i);
    let text = format!(
        "Refund issued for order {order}: RF-{i:06}, 42.50 EUR. {}",
        "We are sorry for the trouble with your order. The refund goes back to the card you \
         paid with; banks usually show it within three to five working days. "
            .repeat(6)
    );
    let reply = Reply::text(text)
        .body(json!({"refund": {"id": format!("RF-{i:06}"), "status": "issued"}}))
        .call(Call::tool("lookup_order", json!({"order_id": order})))
        .call(Call::tool(
            "process_refund",
            json!({"order_id": order, "amount": 42.5}),
        ));
    (
        order.clone(),
        Transcript::new(vec![Turn::new(0, "refund", reply, 800)]),
    )
}

const CASES: usize = 10_000;

/// Per case, cold: 10,000 scenarios, each with its own five checks built just before (nothing
/// compiled, nothing cached in the checks: the way imported seed suites and most users write
/// suites), each evaluated once on its own transcript. Building the checks is not measured.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn per_case_10k_cold_x_5_checks(bencher: divan::Bencher) {
    bencher
        .counter(divan::counter::ItemsCount::new(CASES * 5))
        .with_inputs(|| {
            (0..CASES)
                .map(|i| {
                    let (order, t) = per_case_transcript(i);
                    (t, five_checks(&order))
                })
                .collect::<Vec<_>>()
        })
        .bench_local_values(|cases| {
            for (t, checks) in &cases {
                divan::black_box(evaluate(t, checks));
            }
            cases
        });
}

/// The same five checks, built once and shared by 10,000 transcripts (the argument matched by
/// a regex, so that every check passes on every transcript, as in the per-case form).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn shared_10k_x_5_checks(bencher: divan::Bencher) {
    let mut checks = five_checks("");
    checks[3] = tool("process_refund")
        .arg("order_id", regex(r"^ORD-\d{6}$"))
        .into_expectation();
    let transcripts: Vec<Transcript> = (0..CASES).map(|i| per_case_transcript(i).1).collect();
    // Prepared once, as `agent-test eval` and `Scenario::evaluator` prepare a shared scenario.
    let mut scenario = Scenario::new("shared").user("refund");
    scenario.expect = checks;
    let evaluator = scenario.evaluator();
    bencher
        .counter(divan::counter::ItemsCount::new(CASES * 5))
        .with_inputs(|| transcripts.clone())
        .bench_local_values(|transcripts| {
            for t in transcripts {
                divan::black_box(evaluator.evaluate(t));
            }
        });
}
