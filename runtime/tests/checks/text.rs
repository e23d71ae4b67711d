use agent_test_runtime::check::Status;
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;
use serde_json::json;

use super::{conv, one_turn, transcript, turn};

#[test]
fn contains_is_case_insensitive_by_default() {
    let t = one_turn(Reply::text("Your Refund has been PROCESSED."));
    assert_eq!(
        conv(&t, reply().contains("refund has been processed")).status,
        Status::Pass
    );
    let v = conv(&t, reply().contains("refund completed"));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, r#"reply does not contain "refund completed""#);
    assert_eq!(v.details.expected, Some(json!("refund completed")));
    assert_eq!(
        v.details.actual,
        Some(json!("Your Refund has been PROCESSED."))
    );
}

#[test]
fn case_sensitive_opts_out() {
    let t = one_turn(Reply::text("Your Refund"));
    assert_eq!(
        conv(&t, reply().contains("Refund").case_sensitive()).status,
        Status::Pass
    );
    let v = conv(&t, reply().contains("refund").case_sensitive());
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        r#"reply does not contain "refund" (case-sensitive)"#
    );
}

#[test]
fn not_contains_shows_where_it_was_found() {
    let t = one_turn(Reply::text(
        "Sorry, an internal error occurred while processing.",
    ));
    assert_eq!(
        conv(&t, reply().not_contains("timeout")).status,
        Status::Pass
    );
    let v = conv(&t, reply().not_contains("Internal Error"));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        r#"reply contains "Internal Error": found "Sorry, an internal error occurred while processi…""#
    );
}

#[test]
fn starts_and_ends_with() {
    let t = one_turn(Reply::text("Hello there, thank you"));
    assert_eq!(conv(&t, reply().starts_with("hello")).status, Status::Pass);
    assert_eq!(
        conv(&t, reply().ends_with("THANK YOU")).status,
        Status::Pass
    );
    let v = conv(&t, reply().starts_with("Hi"));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(v.reason, r#"reply does not start with "Hi""#);
    assert!(v.details.diff.is_some());
    let v = conv(&t, reply().ends_with("thanks"));
    assert_eq!(v.reason, r#"reply does not end with "thanks""#);
}

#[test]
fn equals_does_not_trim_unless_asked() {
    let t = one_turn(Reply::text("success\n"));
    let v = conv(&t, reply().equals("SUCCESS"));
    assert_eq!(
        v.status,
        Status::Fail,
        "a trailing newline makes equals fail"
    );
    assert_eq!(v.details.diff.as_deref(), Some("- SUCCESS\n+ success\n"));
    assert_eq!(
        conv(&t, reply().equals("SUCCESS").trimmed()).status,
        Status::Pass
    );
    assert_eq!(
        conv(&t, reply().equals("success").case_sensitive().trimmed()).status,
        Status::Pass
    );
}

#[test]
fn equals_failure_has_a_word_diff() {
    let t = one_turn(Reply::text("refund pending"));
    let v = conv(&t, reply().equals("refund processed"));
    assert_eq!(
        v.details.diff.as_deref(),
        Some("refund [-processed-]{+pending+}")
    );
}

#[test]
fn regex_is_case_sensitive_unless_asked() {
    let t = one_turn(Reply::text("Refund processed for ORD-9921"));
    assert_eq!(conv(&t, reply().matches(r"ORD-\d{4}")).status, Status::Pass);
    assert_eq!(conv(&t, reply().matches("refund")).status, Status::Fail);
    assert_eq!(conv(&t, reply().matches("(?i)refund")).status, Status::Pass);
    assert_eq!(
        conv(&t, reply().matches("refund").case_insensitive()).status,
        Status::Pass
    );
    let v = conv(&t, reply().matches(r"RF-\d+"));
    assert_eq!(v.reason, r"reply does not match /RF-\d+/");
}

#[test]
fn regex_should_not_match() {
    let t = one_turn(Reply::text("All good"));
    assert_eq!(
        conv(&t, reply().not_matches("(?i)error|exception|failed")).status,
        Status::Pass
    );
    let t = one_turn(Reply::text("The request FAILED"));
    let v = conv(&t, reply().not_matches("(?i)error|exception|failed"));
    assert_eq!(v.status, Status::Fail);
    assert_eq!(
        v.reason,
        r#"reply matches /(?i)error|exception|failed/: found "The request FAILED""#
    );
}

#[test]
fn an_invalid_regex_is_an_error_verdict() {
    let t = one_turn(Reply::text("x"));
    let pattern = String::from("(unclosed");
    let v = conv(&t, reply().matches(pattern));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason
            .starts_with("invalid regex `(unclosed`: regex parse error:"),
        "{}",
        v.reason
    );
}

#[test]
fn scopes_select_the_text() {
    let t = transcript(vec![
        ("a", Reply::text("first answer")),
        ("b", Reply::text("second answer")),
    ]);
    // In a turn: that turn's reply.
    assert_eq!(turn(&t, 0, reply().contains("first")).status, Status::Pass);
    assert_eq!(turn(&t, 1, reply().contains("first")).status, Status::Fail);
    // After the turns: the final reply...
    assert_eq!(conv(&t, reply().contains("first")).status, Status::Fail);
    assert_eq!(conv(&t, reply().contains("second")).status, Status::Pass);
    // ...every reply...
    assert_eq!(conv(&t, replies().contains("first")).status, Status::Pass);
    assert_eq!(
        conv(&t, replies().not_contains("first")).reason,
        r#"replies contains "first": found "first answer\nsecond answer""#
    );
    // ...or every message, the user's included.
    assert_eq!(
        conv(&t, conversation().matches("(?m)^b$")).status,
        Status::Pass
    );
    assert_eq!(conv(&t, replies().matches("(?m)^b$")).status, Status::Fail);
}

#[test]
fn a_check_on_a_turn_that_did_not_run_is_an_error() {
    let t = one_turn(Reply::text("x"));
    let v = turn(&t, 3, reply().contains("x"));
    assert_eq!(v.status, Status::Error);
    assert_eq!(v.reason, "turn 4 did not run");
}

#[test]
fn huge_and_unicode_replies() {
    let big = "é".repeat(200_000) + "needle";
    let t = one_turn(Reply::text(big));
    assert_eq!(conv(&t, reply().contains("NEEDLE")).status, Status::Pass);
    let v = conv(&t, reply().not_contains("needle"));
    assert_eq!(v.status, Status::Fail);
    assert!(v.reason.ends_with("éééneedle\""), "{}", v.reason);
    let t = one_turn(Reply::text(""));
    assert_eq!(conv(&t, reply().equals("")).status, Status::Pass);
    assert_eq!(
        conv(&t, reply().contains("x")).reason,
        r#"reply does not contain "x""#
    );
}
