//! A client built once for the suite works in every scenario: 32 scenarios send their turns
//! through one `HttpAgent` (one `reqwest` client and its pool of keep-alive connections), built
//! in a `LazyLock`, to a local service that takes 20 ms to answer. Every scenario runs on the test binary's shared runtime
//! (the default), so a connection the first scenario opened is still alive for the last; with
//! a runtime per test (`runtime = RuntimeFlavor::current_thread();`) the pooled connections
//! die with the scenario that opened them, and later scenarios fail at random with "error
//! sending request".

use std::sync::LazyLock;

use agent_test::agent::HttpAgent;
use agent_test::check::{TextCheck, ToolCheck};
use agent_test::prelude::*;
use agent_test_examples::background;
use axum::routing::post;
use std::time::Duration;

/// A keep-alive service that takes a moment to answer, as a model endpoint does: long enough
/// for one scenario's request to be in flight on a pooled connection while another scenario
/// ends.
fn slow_service() -> String {
    static URL: LazyLock<String> = LazyLock::new(|| {
        let router = axum::Router::new().route(
            "/chat",
            post(|| async {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                axum::Json(
                    json!({"reply": "pong", "tool_calls": [{"name": "ping", "arguments": {}}]}),
                )
            }),
        );
        format!("http://{}/chat", background::serve("slow-service", router))
    });
    URL.clone()
}

/// What every turn must show: the service's answer ...
fn pong() -> TextCheck {
    reply().equals("pong")
}

/// ... and exactly one successful call of its tool (checked turn by turn, so that a call
/// dropped, repeated, failed or moved to another turn is noticed).
fn pinged() -> ToolCheck {
    tool("ping").times(1).succeeded()
}

/// The agent, built once for the whole test binary: its clones share one client.
static SHARED: LazyLock<HttpAgent> = LazyLock::new(|| {
    HttpAgent::post(slow_service())
        .body_template(json!({"message": "{input}"}))
        .tool_calls_at("tool_calls")
        .timeout(Duration::from_secs(10))
});

agent_test! {
    agent = SHARED.clone();

    scenario shared_client_01 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_02 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_03 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_04 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_05 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_06 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_07 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_08 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_09 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_10 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_11 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_12 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_13 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_14 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_15 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_16 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_17 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_18 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_19 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_20 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_21 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_22 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_23 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_24 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_25 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_26 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_27 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_28 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_29 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_30 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_31 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }

    scenario shared_client_32 {
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect pong(); expect pinged(); }
        user "ping" { expect http_status(200); expect pong(); expect pinged(); }
    }
}
