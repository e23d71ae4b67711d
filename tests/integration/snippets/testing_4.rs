use std::sync::LazyLock;

use agent_test::cassette::{Cassette, RunningCassette};
use agent_test::prelude::*;
use agent_test::agent::ChatAgent;
use agent_test::judge::{Judge, JudgeMode};

/// The suite's cassette: replayed by default (no key, no network), recorded again with
/// `AGENT_TEST_CASSETTE_MODE=record`.
static CASSETTE: LazyLock<RunningCassette> = LazyLock::new(|| {
    Cassette::new("tests/cassettes/support")
        .start()
        .expect("the cassette starts")
});

fn assistant() -> ChatAgent {
    ChatAgent::new("gpt-4o-mini")
        .system("You are Acme's support agent.")
        .tool("lookup_order", "Look an order up by id", json!({
            "type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]
        }))
        .mock("lookup_order", json!("delivered"))
        .cassette(&CASSETTE)
}

/// The judge's calls go through the same cassette; its own verdict cache is off, so each run
/// uses (and lists) the judge's entries.
fn recorded_judge() -> Judge {
    Judge::openai("gpt-4o-mini-2024-07-18")
        .cassette(&CASSETTE)
        .mode(JudgeMode::Off)
}

agent_test! {
    agent = assistant();
    judge = recorded_judge();

    scenario answers_from_the_recorded_model {
        user "Where is my order ORD-9921?" {
            expect tool("lookup_order").arg("order_id", "ORD-9921");
            expect reply().contains("delivered");
            expect judge("apologises for the wait");
        }
    }
}
