//! `prices = ..;` in `agent_test!`: every turn gets its cost, `cost()` budgets it, and a price
//! table that cannot be read is an error of every scenario.

use agent_test::agent::{Agent, agent_fn};
use agent_test::check::Status;
use agent_test::model::{Reply, Usage};
use agent_test::prelude::*;
use agent_test::report::prices::Prices;
use agent_test::{Budget, ScenarioRun, Suite};

/// An agent that names no model and reports 12 000 input and 800 output tokens a turn.
fn metered() -> impl Agent {
    agent_fn(|_r| async { Reply::text("Booked HTL-205.").usage(Usage::new(12_000, 800)) })
}

agent_test! {
    agent = metered();
    prices = Prices::builtin().unnamed_as("gpt-4o-mini");
    // The block's scenarios share one budget, far from spent here.
    max_cost_usd = 1.0;

    /// At gpt-4o-mini's list price a turn costs $0.00228; two cost $0.00456.
    scenario within_budget {
        user "Book HTL-205" {
            expect cost().at_most_usd(0.0025);
        }
        user "And the same for tomorrow";
        expect cost().at_most_usd(0.005);
    }

    /// A scenario's own table wins over the suite's.
    scenario priced_its_own_way {
        prices = Prices::new().model("house-model", 0.0, 0.0).unnamed_as("house-model");
        user "Book HTL-205";
        expect cost().at_most_usd(0.0);
    }
}

#[tokio::test]
async fn a_budget_the_turns_overrun_fails_with_both_amounts() {
    let suite = Suite::new()
        .agent(metered())
        .prices(Prices::builtin().unnamed_as("gpt-4o-mini"));
    let mut run = ScenarioRun::new(suite, "over budget");
    run.user("Book HTL-205").await;
    run.user("And tomorrow").await;
    run.expect(cost().at_most_usd(0.004));
    let report = run.report().await;
    assert!(!report.passed());
    assert_eq!(
        report.verdicts[0].reason,
        "cost budget exceeded: $0.00456 > $0.004"
    );
    assert!(
        report.to_string().contains("  agent cost: $0.00456\n"),
        "{report}"
    );
}

#[tokio::test]
async fn a_price_table_that_cannot_be_read_is_an_error_of_the_scenario() {
    let dir = std::env::temp_dir().join(format!("agent-test-prices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("prices.json");
    std::fs::write(
        &file,
        r#"{"models": {"m": {"input": 1, "output": 2, "cached": 0.5}}}"#,
    )
    .unwrap();
    let mut run = ScenarioRun::new(
        Suite::new()
            .agent(metered())
            .prices(Prices::from_file(&file)),
        "bad prices",
    );
    run.user("Book HTL-205").await;
    run.expect(cost().at_most_usd(1.0));
    let report = run.report().await;
    let setup = report
        .verdicts
        .iter()
        .find(|v| v.check == "setup")
        .expect("a setup error");
    assert!(
        setup.reason.starts_with("prices: ") && setup.reason.contains("cached"),
        "{}",
        setup.reason
    );
    // Without a table, nothing is priced and the budget is not measured.
    assert_eq!(
        report
            .verdicts
            .iter()
            .find(|v| v.check == "cost")
            .unwrap()
            .reason,
        "not measured: no price table: set `prices = Prices::from_file(\"prices.json\");` (or \
         `Prices::builtin()`) to give each turn a cost"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A spend limit stops spending: the turn that reaches it is the last one any scenario of the
/// budget runs, and every scenario with a turn left reports "budget spent" — an error, never a
/// pass.
#[tokio::test]
async fn a_spend_limit_stops_within_one_turn_of_reaching_it() {
    use agent_test::scenario::Scenario;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    // $0.002 a turn: 1000 input tokens at $1 and 100 output tokens at $10 per million.
    let priced = || {
        agent_fn(|_r| async {
            CALLS.fetch_add(1, Ordering::SeqCst);
            Reply::text("Done.").usage(Usage::new(1_000, 100))
        })
    };
    let budget = Budget::usd(0.005);
    let suite = || {
        Suite::new()
            .agent(priced())
            .prices(Prices::new().model("m", 1.0, 10.0).unnamed_as("m"))
            .budget(budget.clone())
    };
    let five_turns = (1..=5).fold(Scenario::new("five turns"), |s, i| {
        s.user(format!("step {i}"))
    });
    let five_turns = five_turns.expect(replies().contains("Done"));
    let report = five_turns.run(suite()).await;
    // $0.004 after two turns is under the limit, so the third runs; $0.006 is over it.
    assert_eq!(CALLS.load(Ordering::SeqCst), 3);
    assert_eq!(report.transcript.turns.len(), 3);
    assert!(!report.passed(), "{report}");
    let spent = report
        .verdicts
        .iter()
        .find(|v| v.check == "budget")
        .expect("a budget verdict");
    assert_eq!(spent.status, Status::Error);
    assert_eq!(
        spent.reason,
        "budget spent: $0.006 of max_cost_usd = $0.005 was spent before turn 4: it and the \
         turns after it were not run"
    );
    // Another scenario on the same budget runs nothing at all.
    let report = Scenario::new("later")
        .user("hello")
        .expect_turn(reply().contains("Done"))
        .run(suite())
        .await;
    assert_eq!(CALLS.load(Ordering::SeqCst), 3);
    assert!(!report.passed());
    assert!(
        report.verdicts.iter().any(|v| v.check == "budget"
            && v.reason
                .ends_with("before turn 1: it and the turns after it were not run")),
        "{report}"
    );
    assert_eq!(budget.spent_usd().map(|s| (s * 1000.0).round()), Some(6.0));
    // A turn whose cost is unknown leaves the spend unknown: nothing runs after it.
    let unpriced = Budget::usd(1.0);
    let suite = Suite::new()
        .agent(agent_fn(|_r| async { "no usage" }))
        .prices(Prices::new().model("m", 1.0, 10.0).unnamed_as("m"))
        .budget(unpriced.clone());
    let report = Scenario::new("unknown")
        .user("a")
        .user("b")
        .expect(replies().contains("usage"))
        .run(suite)
        .await;
    assert_eq!(report.transcript.turns.len(), 1);
    assert_eq!(unpriced.spent_usd(), None);
    let v = report
        .verdicts
        .iter()
        .find(|v| v.check == "budget")
        .expect("budget");
    assert!(
        v.reason.starts_with(
            "budget spent: the spend against max_cost_usd = $1.00 is unknown (scenario `unknown`, \
             turn 1: the turn reported no token usage)"
        ),
        "{}",
        v.reason
    );
}
