//! What a failing scenario reports: every check, reasons, expected vs actual, the transcript.

use agent_test::agent::Agent;
use agent_test::model::{Call, Reply};
use agent_test::prelude::*;

use crate::agents::scripted;

fn refund_agent() -> impl Agent {
    scripted(vec![
        Reply::text("I'm sorry. What is the order number?"),
        Reply::text("Refund done.")
            .call(Call::tool("lookup_order", json!({"order_id": "ORD-9921"})))
            .call(Call::tool(
                "process_refund",
                json!({"order_id": "ORD-9921", "amount": 42.5}),
            )),
    ])
}

agent_test! {
    agent = refund_agent();

    #[should_panic(expected = "✗ turn 2  tool(\"process_refund\").arg(\"amount\", 40)\n            tool `process_refund` was called 1 time, but no call matched\n            - call at position 1: amount: expected 40, got 42.5 (turn 2)")]
    scenario argument_failures_show_the_call {
        user "charged twice";
        user "ORD-9921" {
            expect tool("process_refund").arg("amount", 40);
        }
    }

    #[should_panic(expected = "reply does not equal \"Refund completed.\"\n            diff (- expected, + actual):\n              Refund [-completed.-]{+done.+}")]
    scenario text_failures_show_a_diff {
        user "charged twice";
        user "ORD-9921" { expect reply().equals("Refund completed."); }
    }

    #[should_panic(expected = "transcript\n  turn 1  user   charged twice\n          agent  I'm sorry. What is the order number?")]
    scenario the_transcript_is_shown {
        user "charged twice" { expect tool("lookup_order"); }
    }

    #[should_panic(expected = "- conversation  reply().contains(\"x\").depends_on(\"looked\")\n                  skipped: depends on `looked`, which failed")]
    scenario skipped_checks_are_listed {
        user "charged twice";
        expect tool("missing").id("looked");
        expect reply().contains("x").depends_on("looked");
    }

    #[should_panic(expected = "FAILED: 1 failed, 2 passed, 1 warning (4 checks)")]
    scenario every_check_is_counted {
        user "charged twice" {
            expect no_tools();
            expect reply().contains("order number");
        }
        expect tool("lookup_order");
        expect reply().contains("refund").warning();
    }

    /// Only warnings fail: the test passes.
    scenario warnings_alone_pass {
        user "charged twice" { expect reply().contains("refund").warning(); }
    }
}
