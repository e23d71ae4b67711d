use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use agent_test::model::{Reply, Usage};
use agent_test::report::prices::Prices;

fn support_agent() -> impl Agent {
    agent_fn(|_r| async { Reply::text("Refunded.").usage(Usage::new(4_000, 300)) })
}

agent_test! {
    agent = support_agent();
    // Your own prices (US dollars per million input and output tokens)…
    prices = Prices::new().model("gpt-4o-mini", 0.15, 0.60).unnamed_as("gpt-4o-mini");
    // …or a file: {"as_of": "2026-11-01", "models": {"gpt-4o-mini": {"input": 0.15, "output": 0.6}}}
    // prices = Prices::from_file("prices.json");
    // …or the built-in list prices, dated (`BUILTIN_AS_OF`), only when you write it:
    // prices = Prices::builtin().unnamed_as("gpt-4o-mini");

    scenario refund_is_cheap {
        user "Refund ORD-9921" {
            expect cost().at_most_usd(0.002);      // this turn
        }
        user "Thanks!";
        expect cost().at_most_usd(0.005);          // the whole conversation
    }
}
