//! The same demo agent, deployed: served over HTTP by [`DemoServer`] on 127.0.0.1 and tested
//! through the `HttpAgent`, the way you would test your own agent service. No key, no network
//! beyond the loopback.

use agent_test::agent::{HttpAgent, custom_body};
use agent_test::prelude::*;
use agent_test_examples::demo_server::DemoServer;
use std::time::Duration;

/// The agent under test: requests built from a template, the conversation kept server-side
/// under the session id the first answer hands out, tool calls read from `tool_calls`. The
/// reply text comes from the response's `reply` field and the usage from its OpenAI-style
/// `usage`, both found without configuration.
fn demo_over_http() -> HttpAgent {
    HttpAgent::post(DemoServer::shared().chat_url())
        .body_template(json!({
            "message": "{input}",
            "session_id": "{session_id}",
            "context": "{context}",
        }))
        .session_id_from("session_id")
        .tool_calls_at("tool_calls")
        .timeout(Duration::from_secs(10))
}

agent_test! {
    agent = demo_over_http();
    context { CUSTOMER_EMAIL: "ana@example.com" }

    /// A three-turn refund, where only the server remembers the conversation: every turn
    /// sends just the new message and the session id.
    scenario refund_over_http_keeps_the_session {
        tags = ["smoke"];
        user "I was charged twice for my last order" {
            expect http_status(200);
            expect no_tools();
            expect field("session_id").is(regex(r"^s-\d+$"));
            expect reply().contains("order number");
        }
        user "Order number is ORD-9921" {
            expect tool("lookup_order").arg("order_id", "ORD-9921").times(1).succeeded();
            expect field("state").is("awaiting_confirmation");
            expect reply().matches(r"charged twice.*refund the duplicate charge of €42\.50");
        }
        user "Yes, please process the refund" {
            expect tool("process_refund")
                .args(json!({"order_id": "ORD-9921", "amount": 42.5, "reason": "duplicate_charge"}))
                .times(1)
                .succeeded();
            expect reply().matches(r"refund RF-\d+ of €42\.50 .*Expect it within 5-7 business days");
        }
        expect http_success();
        expect tool_sequence(["lookup_order", "process_refund"]);
        expect latency().at_most(Duration::from_secs(2));
        expect tokens().total_at_most(2_000);
    }

    /// Context variables travel in the request body: the booking uses the customer's email.
    scenario booking_over_http_uses_the_context {
        user "Show me hotels in Madrid" {
            expect tool("search_hotels").arg("city", "Madrid").times(1).succeeded();
            expect reply().matches(r"Sol Hostel \(H-202, €48/night\).*Which one should I book\?");
        }
        user "Book the cheapest one from 2026-12-01 for 3 nights" {
            expect tool("create_booking")
                .arg("hotel_id", "H-202")
                .arg("email", "ana@example.com")
                .arg("nights", 3)
                .times(1)
                .succeeded();
            expect reply().matches(r"reference is BK-\d{4} \(total €144\)");
            expect schema(json!({
                "type": "object",
                "required": ["reply", "session_id", "tool_calls"],
                "properties": {"tool_calls": {"type": "array", "minItems": 1}}
            }));
        }
    }

    /// A turn can send its own body instead of the template. The server rejects one without
    /// a message: a 400 answer is recorded like any other, so checks can look at it.
    scenario a_bad_request_is_recorded_not_thrown_away {
        user custom_body(json!({"text": "the wrong field"})) {
            expect http_status(400);
            expect field("error").is(contains("message"));
            expect reply().equals("expected a string `message`");
            expect no_tools();
        }
    }
}
