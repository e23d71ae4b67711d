//! Repeated scenarios stated as reliability: pass rates with their Wilson intervals, pass^k and
//! pass@k in the report, and the `min_pass_rate` gate — met, missed, and impossible.

use std::sync::atomic::{AtomicUsize, Ordering};

use agent_test::agent::agent_fn;
use agent_test::check::Status;
use agent_test::prelude::*;
use agent_test::report::Report;
use agent_test::{ScenarioRun, Suite, up_to};

agent_test! {
    agent = agent_fn(|_r| async { "Refund issued." });

    /// Forty passing runs prove a pass rate of at least 0.9 at 95 % (the lower bound is 0.91).
    scenario reliable_enough {
        repeat = 40;
        min_pass_rate = (0.9, 0.95);
        user "Refund ORD-1 please" {
            expect reply().contains("Refund");
        }
    }
}

/// Runs "refund please" `times` times against an agent that forgets the refund on every
/// `fail_every`-th call (never when 0), with the gate `min_pass_rate`.
async fn run(
    calls: &'static AtomicUsize,
    runs: impl Into<agent_test::Runs> + Copy,
    fail_every: usize,
    gate: (f64, f64),
) -> Report {
    let mut repeats = agent_test::Repeats::new();
    loop {
        let agent = agent_fn(move |_r| async move {
            let n = calls.fetch_add(1, Ordering::SeqCst) + 1;
            if fail_every > 0 && n.is_multiple_of(fail_every) {
                "Done."
            } else {
                "Refund issued."
            }
        });
        let suite = Suite::new().agent(agent).repeat(runs).min_pass_rate(gate);
        let info = agent_test::ScenarioInfo::new("refund").repeated(repeats.index());
        let mut run = ScenarioRun::with_info(suite, info);
        run.user("refund please").await;
        run.expect(reply().contains("Refund"));
        if let Some(r) = repeats.record(run).await {
            return r;
        }
    }
}

#[tokio::test]
async fn a_pass_rate_below_the_gate_fails_with_its_interval_and_pass_k() {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    // 36 of 40: a pass rate of 0.90, but at 95 % it is only known to be at least 0.77.
    let report = run(&CALLS, 40, 10, (0.9, 0.95)).await;
    assert!(!report.passed());
    let text = report.to_string();
    assert!(
        text.starts_with(
            "agent-test: scenario `refund` FAILED: 36 of 40 runs passed (min_pass_rate = (0.9, \
             0.95)); the run shown:"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "repeats: 36 of 40 runs passed (min_pass_rate = (0.9, 0.95)): pass rate 0.90, 95% CI \
             0.77–0.96; pass^3 0.72\n  \
             pass^k  k=1 0.90  k=2 0.81  k=3 0.72  k=4 0.64  k=5 0.57   (all of k runs pass)\n  \
             pass@k  k=1 0.90  k=2 0.99  k=3 1.00  k=4 1.00  k=5 1.00   (at least one of k runs passes)\n  \
             ✗ pass rate 36/40 = 0.90, 95% lower bound 0.77 < 0.90 required\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "  36/40  0.90 (0.77–0.96)  conversation  reply contains \"Refund\"   ← flaky\n"
        ),
        "{text}"
    );
    // The JSON report carries the same figures.
    let json = serde_json::to_value(&report).unwrap();
    let reliability = &json["repeats"]["reliability"];
    assert_eq!(reliability["runs"], 40);
    assert_eq!(reliability["passes"], 36);
    assert_eq!(
        json["repeats"]["min_pass_rate"],
        json!({"rate": 0.9, "confidence": 0.95})
    );
    let hat3 = reliability["pass_hat_k"]["3"].as_f64().unwrap();
    assert!((hat3 - 7140.0 / 9880.0).abs() < 1e-12, "{hat3}"); // C(36,3) / C(40,3)
}

#[tokio::test]
async fn a_gate_the_runs_meet_passes_and_says_so() {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    // 39 of 40 at 80 %: the lower bound (0.92) is above 0.85.
    let report = run(&CALLS, 40, 40, (0.85, 0.8)).await;
    assert!(report.passed(), "{report}");
    let text = report.to_string();
    assert!(
        text.contains(
            "repeats: 39 of 40 runs passed (min_pass_rate = (0.85, 0.8)): pass rate 0.97, 80% CI"
        ),
        "{text}"
    );
    assert!(!text.contains("✗ pass rate"), "the gate is met: {text}");
}

#[tokio::test]
async fn a_gate_too_few_runs_can_prove_is_an_error_naming_the_runs_needed_and_runs_nothing() {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let report = run(&CALLS, 10, 0, (0.9, 0.95)).await;
    assert!(
        !report.passed(),
        "10 passes of 10 prove no rate of 0.9: {report}"
    );
    // Decided before the first run: the agent was never called, and no run was tallied.
    assert_eq!(CALLS.load(Ordering::SeqCst), 0);
    assert!(report.repeats.is_none(), "{report}");
    assert!(report.transcript.turns.is_empty());
    let [plan, check] = report.verdicts.as_slice() else {
        panic!("the plan's error and the check not run: {report}");
    };
    assert_eq!(
        (plan.label.as_str(), plan.status),
        ("repeat plan", Status::Error)
    );
    assert_eq!(
        plan.reason,
        "impossible constraint: min_pass_rate = (0.9, 0.95) can never be reached with repeat = \
         10: even 10 passes of 10 give a 95% lower bound of 0.72; it needs repeat = 35 or more; \
         the scenario was not run"
    );
    assert_eq!(check.status, Status::Skipped);
    assert_eq!(check.reason, "not run: the repeat plan can never be met");
}

#[tokio::test]
async fn a_sequential_plan_stops_as_soon_as_the_runs_decide() {
    // Always right: 0.9 at 95 % is proven after 51 runs of up to 200 (51 / (51 + z²) ≥ 0.9, z = 2.36) (with the wider bounds
    // that looking after every run takes), not 200.
    static RIGHT: AtomicUsize = AtomicUsize::new(0);
    let report = run(&RIGHT, up_to(200), 0, (0.9, 0.95)).await;
    assert!(report.passed(), "{report}");
    let summary = report.repeats.as_ref().expect("repeats");
    assert_eq!((summary.runs, summary.passed_runs), (51, 51));
    assert_eq!(RIGHT.load(Ordering::SeqCst), 51);
    let sequential = summary.sequential.expect("a sequential plan");
    assert_eq!(sequential.up_to, 200);
    assert!(
        report.to_string().contains(
            "repeats: 51 of 51 runs passed (min_pass_rate = (0.9, 0.95), up to 200 runs)"
        ),
        "{report}"
    );
    // Wrong every other time: failed after a handful of runs, saying which bound decided.
    static HALF: AtomicUsize = AtomicUsize::new(0);
    let report = run(&HALF, up_to(200), 2, (0.9, 0.95)).await;
    assert!(!report.passed());
    let summary = report.repeats.as_ref().expect("repeats");
    assert!(summary.runs < 10, "{report}");
    let failure = &summary.failures()[0];
    assert!(
        failure.contains("sequential 95% upper bound") && failure.contains("of up to 200 runs"),
        "{failure}"
    );
    // A sequential plan needs a gate to decide.
    let plan = Suite::new().repeat(up_to(20)).repeat_problem().unwrap();
    assert_eq!(
        plan,
        "repeat = up_to(20) runs until a gate is decided: add min_pass_rate (or min_passes)"
    );
}
