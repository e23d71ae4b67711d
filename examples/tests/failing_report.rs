//! **This scenario fails on purpose**, to show what a failure report looks like:
//!
//! ```text
//! cargo test -p agent-test-examples --test failing_report
//! ```
//!
//! It is excluded from `cargo test` (`test = false` in Cargo.toml).

use agent_test::prelude::*;
use agent_test_examples::demo::demo_agent;

agent_test! {
    agent = demo_agent();

    /// The test expects the agent to refund right away and with a different amount; the
    /// agent asks for the order number first, and refunds the order's actual total.
    scenario expects_the_wrong_refund {
        user "I was charged twice, refund ORD-9921 now" {
            expect tool("process_refund").arg("order_id", "ORD-9921").arg("amount", 21.25).id("refunded");
            expect reply().equals("Your refund is on its way.");
            expect reply().contains("RF-").depends_on("refunded");
        }
        expect no_tool("lookup_order");
        expect reply().contains("sorry").warning();
    }
}
