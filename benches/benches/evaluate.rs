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
use agent_test_runtime::check::{Expectation, Scope, Status};
use agent_test_runtime::evaluate;
use agent_test_runtime::model::Transcript;
use agent_test_runtime::prelude::*;

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
