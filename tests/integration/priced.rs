//! `prices = ..;` in `agent_test!`: every turn gets its cost, `cost()` budgets it, and a price
//! table that cannot be read is an error of every scenario.

use agent_test::prelude::*;

/// An agent that names no model and reports 12 000 input and 800 output tokens a turn.
fn metered() -> impl Agent {
    agent_fn(|_r| async { Reply::text("Booked HTL-205.").usage(Usage::new(12_000, 800)) })
}

agent_test! {
    agent = metered();
    prices = Prices::builtin().unnamed_as("gpt-4o-mini");

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
