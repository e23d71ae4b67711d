//! An agent built on a real Rust LLM crate (`genai`, with its `otel` feature) returns only its
//! text; wrapped in `traced(..)`, its tool calls, sub-agent and tokens are read from the
//! `tracing` spans genai and the agent write — no recording code. The model is a scripted
//! OpenAI-compatible endpoint on 127.0.0.1 (see the crate's documentation).

use std::sync::OnceLock;

use agent_test::prelude::*;
use agent_test_example_genai::{ScriptedModel, traced_genai_agent};

fn model() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(ScriptedModel::start)
}

agent_test! {
    agent = traced_genai_agent(model());

    /// A lookup: the model asks for the tool, the agent runs it, the model answers.
    scenario genai_agent_looks_an_order_up {
        user "Where is my order ORD-1042?" {
            expect tool("lookup_order").arg("order_id", "ORD-1042").result(contains("delivered"));
            expect agent_invoked(["support_agent"]);
            expect no_tool("cancel_order");
            expect reply().contains("ORD-1042 is delivered");
            expect tokens().total_at_most(500);
        }
    }

    /// A tool that fails: the span's error status is a failed call, and the agent says so.
    scenario genai_agent_cannot_cancel_a_delivered_order {
        user "Please cancel ORD-1042" {
            expect tool("cancel_order").arg("order_id", "ORD-1042").failed();
            expect reply().contains("cannot be cancelled");
        }
    }
}
