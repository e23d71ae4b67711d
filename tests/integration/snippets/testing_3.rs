use agent_test::prelude::*;
use agent_test::agent::agent_fn;
use agent_test::judge::{Judge, JudgeMode};

/// The suite's judge: a real model, cached in the repository; CI replays the cache. (Not
/// named `judge`: inside `agent_test!` the prelude's `judge(..)` check would win.)
fn suite_judge() -> Judge {
    let judge = Judge::from_env().cache_dir("tests/judge-cache");
    if std::env::var_os("CI").is_some() {
        judge.mode(JudgeMode::Replay)
    } else {
        judge
    }
}

agent_test! {
    agent = agent_fn(|_request| async { "Your refund RF-1 of €42.50 is on its way." });
    judge = suite_judge();

    scenario refund_is_confirmed {
        user "Please refund ORD-9921" {
            expect reply().contains("RF-");
        }
    }
}
