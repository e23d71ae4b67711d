//! Sub-agent invocations and responses.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::Call;
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;

use super::{conv, tool_call, transcript, turn};

fn delegation() -> agent_test_runtime::model::Transcript {
    transcript(vec![
        (
            "research quantum computing",
            Reply::text("Here is what I found").call(
                Call::tool(
                    "a2a__research_agent__search_papers",
                    json!({"q": "quantum"}),
                )
                .result(json!(
                    "Quantum Computing Fundamentals (2021); Qubits in practice"
                )),
            ),
        ),
        (
            "translate it",
            Reply::text("Voilà").call(tool_call(
                "a2a__translation_agent__translate",
                json!({"to": "fr"}),
            )),
        ),
    ])
}

#[test]
fn invoked_per_turn_and_conversation_with_min_calls() {
    let t = delegation();
    assert_eq!(
        turn(&t, 0, agent_invoked(["a2a__research_agent__search_papers"])).status,
        Status::Pass
    );
    let v = turn(
        &t,
        0,
        agent_invoked([
            "a2a__research_agent__search_papers",
            "a2a__translation_agent__translate",
        ]),
    );
    assert_eq!(
        v.reason,
        "missing required agent invocations: a2a__translation_agent__translate"
    );
    assert_eq!(
        conv(
            &t,
            agent_invoked([
                "a2a__research_agent__search_papers",
                "a2a__translation_agent__translate"
            ])
        )
        .status,
        Status::Pass
    );
    let v = conv(
        &t,
        agent_invoked(["a2a__research_agent__search_papers"]).min_calls(2),
    );
    assert_eq!(
        v.reason,
        "missing required agent invocations: a2a__research_agent__search_papers"
    );
    assert_eq!(
        v.details.actual,
        Some(
            json!({"requirements": [{"agent": "a2a__research_agent__search_papers", "calls": 1, "requiredCalls": 2}]})
        )
    );
}

#[test]
fn not_invoked_reports_turn_and_evidence() {
    let t = delegation();
    assert_eq!(
        conv(&t, agent_not_invoked(["a2a__admin_agent__execute"])).status,
        Status::Pass
    );
    let v = conv(&t, agent_not_invoked(["a2a__translation_agent__translate"]));
    assert_eq!(
        v.reason,
        "forbidden agents were invoked: a2a__translation_agent__translate"
    );
    assert_eq!(v.details.violations[0].turn_index, Some(1));
    assert_eq!(
        v.details.violations[0].evidence,
        Some(json!({"agent": "a2a__translation_agent__translate", "arguments": {"to": "fr"}}))
    );
}

#[test]
fn response_contains_is_case_sensitive() {
    let t = delegation();
    assert_eq!(
        conv(
            &t,
            agent_response("a2a__research_agent__search_papers")
                .contains("Quantum Computing Fundamentals")
        )
        .status,
        Status::Pass
    );
    let v = conv(
        &t,
        agent_response("a2a__research_agent__search_papers")
            .contains("quantum computing fundamentals"),
    );
    assert_eq!(
        v.reason,
        "no matching agent response found containing expected text"
    );
    assert_eq!(
        conv(
            &t,
            agent_response("a2a__translation_agent__translate").contains("x")
        )
        .status,
        Status::Fail,
        "no result at all"
    );
}

/// An agent name matches a call named exactly that, or the agent's member tools
/// `a2a__<name>__<tool>`.
#[test]
fn an_agent_name_matches_its_member_tools() {
    let t = transcript(vec![(
        "book me a visa",
        Reply::text("Booked.").call(
            Call::tool("a2a__visa_agent__book", json!({"country": "BR"}))
                .result(json!("Visa appointment VB-17")),
        ),
    )]);
    let v = conv(&t, agent_not_invoked(["visa_agent"]));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, "forbidden agents were invoked: visa_agent");
    assert_eq!(
        v.details.violations[0].evidence,
        Some(
            json!({"agent": "visa_agent", "tool": "a2a__visa_agent__book", "arguments": {"country": "BR"}})
        )
    );
    assert_eq!(conv(&t, agent_invoked(["visa_agent"])).status, Status::Pass);
    assert_eq!(
        conv(&t, agent_invoked(["visa_agent"]).min_calls(2)).reason,
        "missing required agent invocations: visa_agent"
    );
    assert_eq!(
        conv(&t, agent_response("visa_agent").contains("VB-17")).status,
        Status::Pass
    );
    // A prefix of the agent's name is another agent; a member name is that tool only.
    assert_eq!(conv(&t, agent_not_invoked(["visa"])).status, Status::Pass);
    assert_eq!(
        conv(&t, agent_not_invoked(["a2a__visa_agent__cancel"])).status,
        Status::Pass
    );
    // A call named exactly like the agent.
    let direct = transcript(vec![(
        "x",
        Reply::text("").call(tool_call("visa_agent", json!({}))),
    )]);
    assert_eq!(
        conv(&direct, agent_not_invoked(["visa_agent"])).reason,
        "forbidden agents were invoked: visa_agent"
    );
    // Exact tool names only (PromptKit's rule).
    assert_eq!(
        conv(&t, agent_not_invoked(["visa_agent"]).exact_names()).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, agent_invoked(["visa_agent"]).exact_names()).reason,
        "missing required agent invocations: visa_agent"
    );
    assert_eq!(
        conv(
            &t,
            agent_response("visa_agent").contains("VB-17").exact_name()
        )
        .status,
        Status::Fail
    );
}

/// An agent span is a node named after the agent: it counts as an invocation, and an agent used
/// as a tool with its own agent node inside is one delegation, not two.
#[test]
fn agent_nodes_are_invocations_counted_once_per_delegation() {
    let as_tool = Call::tool("research_agent", json!({"q": "quantum"}))
        .result(json!("Qubits in practice"))
        .child(
            Call::node("research_agent")
                .child(Call::tool("search_papers", json!({"q": "quantum"}))),
        );
    let t = transcript(vec![("research", Reply::text("done").call(as_tool))]);
    assert_eq!(
        conv(&t, agent_invoked(["research_agent"])).status,
        Status::Pass
    );
    let twice = conv(&t, agent_invoked(["research_agent"]).min_calls(2));
    assert_eq!(twice.status, Status::Fail);
    assert_eq!(
        twice.reason,
        "missing required agent invocations: research_agent"
    );
    assert_eq!(
        twice.details.violations[0].message,
        "`research_agent` was invoked 1 times"
    );
    // A node alone is an invocation too: forbidding the agent fails on it.
    let node_only = transcript(vec![(
        "visa",
        Reply::text("done").call(Call::node("visa_agent").child(Call::tool("apply", json!({})))),
    )]);
    let v = conv(&node_only, agent_not_invoked(["visa_agent"]));
    assert_eq!(
        (v.status, v.reason.as_str()),
        (Status::Fail, "forbidden agents were invoked: visa_agent")
    );
    // Its response is read from the outer call's result.
    assert_eq!(
        conv(&t, agent_response("research_agent").contains("Qubits")).status,
        Status::Pass
    );
}
