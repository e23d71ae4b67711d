//! Mutation testing throughput: the mutants of recorded transcripts, each evaluated under a
//! five-check scenario, in process.
//!
//! ```text
//! cargo bench -p agent-test-benches --bench mutate
//! ```
//!
//! divan reports mutant evaluations per second: making a mutant (a changed copy of the
//! transcript) and evaluating the five checks on it, counted once per mutant.

use agent_test_benches::passing_transcripts;
use agent_test_runtime::check::{Expectation, IntoExpectation};
use agent_test_runtime::model::Transcript;
use agent_test_runtime::mutate::{Run, mutants, mutate, mutate_many};
use agent_test_runtime::prelude::*;

fn main() {
    divan::main();
}

/// Five checks a support scenario would have.
fn five_checks() -> Vec<Expectation> {
    vec![
        reply().contains("refund").into_expectation(),
        tool("lookup_order")
            .arg("order_id", "ORD-9921")
            .into_expectation(),
        tool("process_refund").at_most(1).into_expectation(),
        no_tool("cancel_order").into_expectation(),
        tool_sequence(["lookup_order", "process_refund"]).into_expectation(),
    ]
}

const TRANSCRIPTS: usize = 200;

fn transcripts() -> Vec<Transcript> {
    passing_transcripts(TRANSCRIPTS)
}

/// Every mutant of 200 transcripts, evaluated.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn mutants_of_200_transcripts_x_5_checks(bencher: divan::Bencher) {
    let ts = transcripts();
    let checks = five_checks();
    let n: usize = ts.iter().map(|t| mutants(t).len()).sum();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| {
            for t in &ts {
                divan::black_box(mutate(t, &checks).expect("the transcripts pass"));
            }
        });
}

/// The same on every core, as `agent-test mutate` runs a suite.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn mutants_of_200_transcripts_x_5_checks_all_cores(bencher: divan::Bencher) {
    let ts = transcripts();
    let checks = five_checks();
    let n: usize = ts.iter().map(|t| mutants(t).len()).sum();
    let runs: Vec<Run<'_>> = ts.iter().map(|t| Run::new(t, &checks)).collect();
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench_local(|| divan::black_box(mutate_many(&runs)));
}
