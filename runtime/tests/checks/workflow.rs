//! Workflow state and guardrails.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::{Guardrail, Reply, Workflow};
use agent_test_runtime::prelude::*;

use super::{conv, one_turn, transcript, turn};

#[test]
fn state_transitions_and_completion() {
    let t = transcript(vec![
        (
            "billing help",
            Reply::text("").workflow(Workflow::in_state("intake")),
        ),
        (
            "specialist please",
            Reply::text("").workflow(
                Workflow::in_state("specialist").transitions(["processing", "specialist"]),
            ),
        ),
        (
            "thanks",
            Reply::text("").workflow(
                Workflow::in_state("resolved")
                    .transitions(["resolved"])
                    .completed(),
            ),
        ),
    ]);
    assert_eq!(turn(&t, 0, state_is("intake")).status, Status::Pass);
    assert_eq!(
        turn(&t, 1, state_is("intake")).reason,
        r#"expected state "intake" but workflow is in state "specialist""#
    );
    assert_eq!(
        turn(&t, 1, transitioned_to("specialist")).status,
        Status::Pass
    );
    assert_eq!(
        turn(&t, 2, transitioned_to("specialist")).reason,
        r#"workflow never transitioned to state "specialist""#
    );
    assert_eq!(conv(&t, transitioned_to("specialist")).status, Status::Pass);
    assert_eq!(conv(&t, state_is("resolved")).status, Status::Pass);
    assert_eq!(
        turn(&t, 1, workflow_complete()).reason,
        "workflow is not complete"
    );
    assert_eq!(conv(&t, workflow_complete()).status, Status::Pass);
}

#[test]
fn absent_state_fails() {
    let t = one_turn(Reply::text("plain agent"));
    for c in [
        state_is("intake"),
        transitioned_to("x"),
        workflow_complete(),
    ] {
        assert_eq!(conv(&t, c).reason, "no workflow state was reported");
    }
}

#[test]
fn guardrails_named_or_any() {
    let t = one_turn(
        Reply::text("")
            .guardrail(Guardrail::triggered("banned_words").message("'definitely'"))
            .guardrail(Guardrail::passed("max_length")),
    );
    assert_eq!(
        conv(&t, guardrail_triggered("banned_words")).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, guardrail_not_triggered("max_length")).status,
        Status::Pass
    );
    assert_eq!(conv(&t, any_guardrail_triggered()).status, Status::Pass);
    let v = conv(&t, guardrail_triggered("max_length"));
    assert_eq!(v.reason, "guardrail `max_length` did not trigger");
    assert_eq!(
        v.details.actual,
        Some(
            json!({"expected_triggered": true, "actually_triggered": false, "guardrail": "max_length"})
        )
    );
    assert_eq!(
        conv(&t, no_guardrail_triggered()).reason,
        "guardrail `banned_words` triggered"
    );
    // No guardrail ran: "none triggered" is not measured, unless not running is fine.
    let quiet = one_turn(Reply::text("fine"));
    assert_eq!(
        conv(&quiet, no_guardrail_triggered()).reason,
        "not measured: no guardrail ran (no guardrail result was recorded)"
    );
    assert_eq!(
        conv(&quiet, no_guardrail_triggered().or_not_run()).status,
        Status::Pass
    );
    assert_eq!(
        conv(&quiet, any_guardrail_triggered()).reason,
        "no guardrail triggered"
    );
}
