//! A support agent on rig 0.44, tested with agent-test through both routes:
//!
//! - `traced(..)`: the agent returns only its text; the tool calls (arguments, results, the
//!   refund that failed), the agent node and the tokens come from the `tracing` spans rig's
//!   agent loop writes (`invoke_agent`, `chat`, `execute_tool` with
//!   `gen_ai.tool.call.outcome`) — no recording code;
//! - `glue_agent(..)`: an `agent_fn` that builds the `Reply` from rig's own `PromptResponse`
//!   (its final text, its usage, and the tool calls and results in its `messages`).
//!
//! The model is a scripted OpenAI-compatible endpoint on 127.0.0.1 (see the crate's
//! documentation); one scenario replays the model's traffic from a cassette instead.

use std::sync::{Arc, LazyLock};

use agent_test::agent::traced;
use agent_test::agent::{Agent, AgentRequest};
use agent_test::cassette::{Cassette, RunningCassette};
use agent_test::check::Status;
use agent_test::evaluate;
use agent_test::model::{Message, Transcript, Turn};
use agent_test::prelude::*;
use agent_test_example_rig::{ScriptedModel, SupportAgent, Transport, glue_agent, support_agent};

/// The scripted model, started once for the test binary.
static MODEL: LazyLock<String> = LazyLock::new(ScriptedModel::start);

/// One rig agent for every scenario, built once: the traced scenarios and those read from
/// rig's result share it. Its concurrent runs (one bus, driven by all of them) still give each
/// traced turn its own spans, and rig's process-wide reqwest client works in every scenario
/// because agent-test runs them all on one shared runtime.
static RIG: LazyLock<Arc<rig::Agent>> =
    LazyLock::new(|| Arc::new(support_agent(&MODEL, Transport::Shared)));

/// The model traffic of `replays_the_model_from_a_cassette`, recorded from the scripted model
/// with `AGENT_TEST_CASSETTE_MODE=record` and replayed (by default) without it: in replay mode
/// nothing is forwarded anywhere (its upstream is then OpenAI's default, never reached).
static CASSETTE: LazyLock<RunningCassette> = LazyLock::new(|| {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cassettes/support");
    let recording = std::env::var("AGENT_TEST_CASSETTE_MODE").is_ok_and(|m| m != "replay");
    let cassette = Cassette::new(dir);
    let cassette = if recording {
        cassette.upstream(MODEL.as_str())
    } else {
        cassette
    };
    cassette.start().expect("the cassette starts")
});

agent_test! {
    // The one rig agent, shared by every scenario (this expression is evaluated for each run).
    agent = traced(SupportAgent::shared(RIG.clone()));

    /// A lookup: rig's agent asks the model, runs the tool, answers from its result.
    scenario looks_an_order_up {
        user "Where is my order ORD-1001?" {
            expect tool("lookup_order").arg("order_id", "ORD-1001").succeeded().result(contains("delivered"));
            expect agent_invoked(["support_agent"]);
            expect no_tool("refund");
            expect reply().contains("ORD-1001 is delivered");
            expect tokens().total_at_most(500);
        }
    }

    /// A refund within the order's total succeeds.
    scenario refunds_within_the_total {
        user "Please refund €15.00 on ORD-1001" {
            expect tool("refund").succeeded().arg("order_id", "ORD-1001").arg("amount_cents", 1500);
            expect reply().contains("RF-1001-1500");
        }
    }

    /// A refund above the total is the tool's error: rig's span says
    /// `gen_ai.tool.call.outcome = error`, and the agent neither retries nor escalates.
    scenario refuses_a_refund_above_the_total {
        user "Please refund €999.99 on ORD-1001" {
            expect tool("refund").failed().arg("amount_cents", 99999).times(1);
            expect no_tool("escalate");
            expect reply().contains("above the order's total");
        }
    }

    /// Two turns, streamed (`agent.prompt(..).stream()`): the second runs on the first's
    /// history.
    scenario streams_a_conversation {
        agent = traced(SupportAgent::shared(RIG.clone()).streaming(true));
        user "Where is my order ORD-1002?" {
            expect tool("lookup_order").arg("order_id", "ORD-1002").result(contains("shipped"));
        }
        user "I want to talk to a manager" {
            expect tool("escalate").succeeded().result_json_path("$.ticket", "ESC-1");
            expect no_tool("lookup_order");
            expect reply().contains("ESC-1");
        }
        expect tool_sequence(["lookup_order", "escalate"]);
    }

    /// The same refusal read from rig's result instead of its spans (`reply_from`).
    scenario glue_reads_the_failed_refund {
        agent = glue_agent(RIG.clone(), false);
        user "Please refund €999.99 on ORD-1001" {
            expect tool("refund").failed().arg("amount_cents", 99999);
            expect no_tool("escalate");
            expect tokens().total_at_most(500);
        }
    }

    /// A refund read from a streamed run's `FinalResponse` (`reply_from`).
    scenario glue_reads_a_streamed_refund {
        agent = glue_agent(RIG.clone(), true);
        user "Please refund €15.00 on ORD-1001" {
            expect tool("refund").succeeded().arg("amount_cents", 1500).result_json_path("$.refund_id", "RF-1001-1500");
            expect reply().contains("RF-1001-1500");
        }
    }

    /// rig's OpenAI client pointed at a cassette: the model's answers replayed offline.
    scenario replays_the_model_from_a_cassette {
        agent = traced(SupportAgent::new(&CASSETTE.base_url(), Transport::Shared));
        user "Please refund €15.00 on ORD-1002" {
            expect tool("refund").succeeded().arg("order_id", "ORD-1002").arg("amount_cents", 1500);
            expect reply().contains("RF-1002-1500");
        }
    }
}

/// One turn of `agent`, as a transcript (what a scenario records), on a runtime of its own
/// (so `agent` has a reqwest client of its own: `Transport::OwnClient`).
fn transcript_of(agent: &impl Agent, input: &str) -> Transcript {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let request = AgentRequest::new("bug", 0, vec![Message::user(input)]);
    let reply = runtime
        .block_on(agent.respond(request))
        .expect("the turn runs");
    Transcript::new(vec![Turn::new(0, input, reply, 0)])
}

/// The bug a user reported: `succeeded()` with a matching argument passed on a call that
/// failed. On the refund rig refused, it fails — read from the spans and from rig's result —
/// and the same check without `succeeded()`, or with `failed()`, passes.
#[test]
fn succeeded_fails_on_the_refund_rig_refused() {
    let agents: [(&str, Box<dyn Agent>); 2] = [
        (
            "spans",
            Box::new(traced(SupportAgent::new(&MODEL, Transport::OwnClient))),
        ),
        (
            "result",
            Box::new(glue_agent(
                Arc::new(support_agent(&MODEL, Transport::OwnClient)),
                false,
            )),
        ),
    ];
    for (route, agent) in agents {
        let t = transcript_of(&agent, "Please refund €999.99 on ORD-1001");
        let verdicts = evaluate(
            &t,
            &[
                tool("refund")
                    .succeeded()
                    .arg("amount_cents", 99999)
                    .into_expectation(),
                tool("refund").arg("amount_cents", 99999).into_expectation(),
                tool("refund")
                    .failed()
                    .arg("amount_cents", 99999)
                    .into_expectation(),
            ],
        );
        let statuses: Vec<Status> = verdicts.iter().map(|v| v.status).collect();
        assert_eq!(
            statuses,
            [Status::Fail, Status::Pass, Status::Pass],
            "{route}: {verdicts:#?}"
        );
        assert!(
            verdicts[0].reason.contains("failed"),
            "{route}: the reason names the failure: {}",
            verdicts[0].reason
        );
    }
}
