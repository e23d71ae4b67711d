use agent_test::prelude::*;
use agent_test::{ScenarioRun, Suite};
use agent_test::agent::agent_fn;

#[tokio::test]
async fn refund() {
    let agent = agent_fn(|_req| async { "Sure — what is your order number?" });
    let mut run = ScenarioRun::new(Suite::new().agent(agent), "refund");
    run.user("I was charged twice").await;
    run.expect_turn(reply().contains("order number"));
    run.expect(no_tool("cancel_order"));
    run.report().await.assert_passed();
}
