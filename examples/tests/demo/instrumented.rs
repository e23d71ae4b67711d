//! The demo agent as a black box instrumented with OpenTelemetry: its HTTP answer carries only
//! the reply text; its tool calls, sub-agents and tokens reach the test as spans, exported by
//! the real OpenTelemetry SDK to the receiver the test runs on 127.0.0.1. No change to the
//! agent's HTTP contract: the same checks as for an agent that lists its calls in the body.

use std::sync::OnceLock;

use agent_test::agent::HttpAgent;
use agent_test::prelude::*;
use agent_test::trace::OtlpReceiver;
use agent_test_examples::demo_server::DemoServer;
use std::time::Duration;

/// The receiver the agent exports to (what `OTEL_EXPORTER_OTLP_ENDPOINT` would name).
fn receiver() -> &'static OtlpReceiver {
    static RECEIVER: OnceLock<OtlpReceiver> = OnceLock::new();
    RECEIVER.get_or_init(|| OtlpReceiver::start().expect("a port on 127.0.0.1"))
}

/// The instrumented demo agent, served on 127.0.0.1 and exporting its spans to the receiver.
fn server() -> &'static DemoServer {
    static SERVER: OnceLock<DemoServer> = OnceLock::new();
    SERVER.get_or_init(|| DemoServer::start_traced(&receiver().endpoint()))
}

/// The agent under test: a plain HTTP agent (no tool-call path: the body has none) whose
/// calls are read from its spans.
fn black_box_demo() -> HttpAgent {
    HttpAgent::post(server().chat_url())
        .body_template(json!({"message": "{input}", "session_id": "{session_id}"}))
        .session_id_from("session_id")
        .traces_from(receiver())
        .timeout(Duration::from_secs(10))
}

agent_test! {
    agent = black_box_demo();

    /// The refund of `over_http`, checked through the agent's spans alone.
    scenario refund_seen_through_spans {
        user "I was charged twice for my last order" {
            expect no_tools();
        }
        user "Order number is ORD-9921" {
            expect tool("lookup_order").arg("order_id", "ORD-9921");
        }
        user "Yes, please process the refund" {
            expect tool("process_refund")
                .args(json!({"order_id": "ORD-9921", "amount": 42.5, "reason": "duplicate_charge"}));
            expect reply().matches(r"refund RF-\d+ of €42\.50");
        }
        expect tool_sequence(["lookup_order", "process_refund"]);
        expect agent_invoked(["demo_agent", "support_agent"]);
        expect no_tool("cancel_order");
        expect no_tool_errors();
        expect tokens().total_at_most(2_000);
    }

    /// A tool that fails shows as a failed call: its span's ERROR status.
    scenario an_unknown_order_is_a_failed_call_in_the_spans {
        user "Please refund order ORD-7001" {
            expect tool("lookup_order").arg("order_id", "ORD-7001").failed();
            expect no_tool("process_refund");
            expect reply().contains("couldn't find");
        }
    }
}
