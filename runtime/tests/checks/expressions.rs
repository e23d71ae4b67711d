//! Expressions and dates against a pinned clock.

use agent_test_runtime::check::Status;
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;

use super::{conv, pinned, tool_call};

/// Sunday 2026-11-22, 09:30 UTC.
const NOW: &str = "2026-11-22T09:30:00Z";

fn call(args: serde_json::Value) -> agent_test_runtime::model::Transcript {
    pinned(
        vec![(
            "book",
            Reply::text("").call(tool_call("create_event", args)),
        )],
        NOW,
        "UTC",
    )
}

fn first_message(
    t: &agent_test_runtime::model::Transcript,
    c: agent_test_runtime::check::ToolCheck,
) -> (Status, String) {
    let v = conv(t, c);
    let msg = v
        .details
        .violations
        .first()
        .map_or(v.reason.clone(), |x| x.message.clone());
    (v.status, msg)
}

#[test]
fn relative_dates_with_at_time() {
    let t = call(json!({"date": "2026-11-24T12:00:00", "summary": "Client Lunch"}));
    let check = tool("create_event")
        .arg(
            "date",
            expr("AT_TIME(DATE_ADD(TODAY(), 2, 'days'), '12:00')"),
        )
        .arg("summary", "Client Lunch");
    assert_eq!(conv(&t, check).status, Status::Pass);
    let (status, msg) = first_message(
        &t,
        tool("create_event").arg(
            "date",
            expr("AT_TIME(DATE_ADD(TODAY(), 1, 'days'), '12:00')"),
        ),
    );
    assert_eq!(status, Status::Fail);
    assert_eq!(
        msg,
        r#"call at conversation position 0: date: expected "2026-11-23T12:00:00" (= AT_TIME(DATE_ADD(TODAY(), 1, 'days'), '12:00')), got "2026-11-24T12:00:00""#
    );
}

#[test]
fn date_matcher_with_tolerance_and_offsets() {
    let t = call(json!({"date": "2026-11-23T09:03:00Z", "from": "2026-11-15"}));
    let tomorrow_9 = || date("AT_TIME(DATE_ADD(TODAY, 1, 'day'), '09:00')");
    assert_eq!(
        conv(
            &t,
            tool("create_event").arg("date", tomorrow_9().tolerance_minutes(5))
        )
        .status,
        Status::Pass
    );
    let (status, msg) = first_message(&t, tool("create_event").arg("date", tomorrow_9()));
    assert_eq!(status, Status::Fail);
    assert_eq!(
        msg,
        r#"call at conversation position 0: date: expected "2026-11-23T09:00:00", got "2026-11-23T09:03:00Z" (3 min later)"#
    );
    // A date means midnight; a day's tolerance accepts the week-ago date.
    assert_eq!(
        conv(
            &t,
            tool("create_event").arg(
                "from",
                date("DATE_SUB(TODAY, 1, 'week')").tolerance_minutes(1440)
            )
        )
        .status,
        Status::Pass
    );
    let t = call(json!({"date": "next tuesday"}));
    let (_, msg) = first_message(&t, tool("create_event").arg("date", tomorrow_9()));
    assert_eq!(
        msg,
        r#"call at conversation position 0: date: expected a date "2026-11-23T09:00:00", got "next tuesday" (not a date)"#
    );
}

#[test]
fn time_zones_change_today() {
    // 23:30 UTC on the 22nd is already the 23rd in Tokyo.
    let t = pinned(
        vec![(
            "q",
            Reply::text("").call(tool_call("t", json!({"day": "2026-11-23"}))),
        )],
        "2026-11-22T23:30:00Z",
        "Asia/Tokyo",
    );
    assert_eq!(
        conv(&t, tool("t").arg("day", expr("TODAY()"))).status,
        Status::Pass
    );
    let t = pinned(
        vec![(
            "q",
            Reply::text("").call(tool_call("t", json!({"day": "2026-11-23"}))),
        )],
        "2026-11-22T23:30:00Z",
        "UTC",
    );
    assert_eq!(
        conv(&t, tool("t").arg("day", expr("TODAY()"))).status,
        Status::Fail
    );
}

#[test]
fn format_concat_and_json_extract_with_context() {
    let mut t = call(
        json!({"message": "Reminder for 2026-11-23", "sku": "ABC-123", "user": 12345, "tier": "PREMIUM"}),
    );
    t.context
        .insert("ORDER_JSON", r#"{"sku": "ABC-123", "qty": 1}"#);
    t.context.insert("USER_ID", 12345);
    t.context.insert("PLAN", "premium");
    let c = tool("create_event")
        .arg(
            "message",
            expr("CONCAT('Reminder for ', FORMAT_DATE(DATE_ADD(TODAY, 1, 'day'), '%Y-%m-%d'))"),
        )
        .arg("sku", expr("JSON_EXTRACT(ORDER_JSON, 'sku')"))
        .arg("user", expr("USER_ID"))
        .arg("tier", expr("UPPER(PLAN)"));
    assert_eq!(conv(&t, c).status, Status::Pass);
}

#[test]
fn expression_errors_are_error_verdicts() {
    let t = call(json!({"x": 1}));
    let v = conv(&t, tool("create_event").arg("x", expr("MISSING_VAR")));
    assert_eq!(v.status, Status::Error);
    assert_eq!(
        v.reason,
        "x: `MISSING_VAR`: unknown context variable `MISSING_VAR`"
    );
    let bad = String::from("DATE_ADD(TODAY(), 1, 'fortnight')");
    let v = conv(&t, tool("create_event").arg("x", date(bad)));
    assert_eq!(v.status, Status::Error);
    assert!(
        v.reason.contains("unknown unit 'fortnight'"),
        "{}",
        v.reason
    );
}
