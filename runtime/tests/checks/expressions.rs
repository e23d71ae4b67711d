//! Expressions and dates against a pinned clock.

use agent_test_runtime::check::Status;
use agent_test_runtime::matcher::IntoMatcher;
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

/// The verdict of `tool("create_event").arg("x", matcher)` on `{"x": x}`: its status and
/// reason, or the first violation's message when it failed.
fn verdict_of(x: serde_json::Value, m: impl IntoMatcher) -> (Status, String) {
    let t = call(json!({ "x": x }));
    first_message(&t, tool("create_event").arg("x", m))
}

/// `{"x": x}` checked with `matcher`, the context variable `N` set to `n`.
fn verdict_with_n(
    x: serde_json::Value,
    n: serde_json::Value,
    m: impl IntoMatcher,
) -> (Status, String) {
    let mut t = call(json!({ "x": x }));
    t.context.insert("N", n);
    first_message(&t, tool("create_event").arg("x", m))
}

#[test]
fn date_arithmetic_out_of_range_is_an_error_verdict_not_a_panic() {
    let range = "is out of range (dates go from the year -9999 to 9999)";
    // (function, count, unit, the error). Negating i64::MIN overflowed ("attempt to negate
    // with overflow") before.
    for (func, count, unit, message) in [
        (
            "DATE_SUB",
            json!(i64::MIN),
            "day",
            format!("DATE_SUB: -9223372036854775808 days {range}"),
        ),
        (
            "DATE_ADD",
            json!(i64::MAX),
            "days",
            format!("DATE_ADD: 9223372036854775807 days {range}"),
        ),
        (
            "DATE_ADD",
            json!(i64::MIN),
            "minutes",
            format!("DATE_ADD: -9223372036854775808 minutes {range}"),
        ),
        (
            "DATE_SUB",
            json!(u64::MAX),
            "week",
            format!("DATE_SUB: 18446744073709551615 weeks {range}"),
        ),
        (
            "DATE_ADD",
            json!(1e39),
            "hour",
            format!("DATE_ADD: 1e+39 hours {range}"),
        ),
        (
            "DATE_ADD",
            json!(7304485),
            "days",
            format!("DATE_ADD: 7304485 days {range}"),
        ),
    ] {
        // From a context variable: evaluated, an error verdict.
        let source = format!("{func}(TODAY(), N, '{unit}')");
        for m in [
            expr(source.as_str()),
            date(source.as_str())
                .tolerance_minutes(u32::MAX)
                .into_matcher(),
        ] {
            let (status, reason) = verdict_with_n(json!("2026-11-22"), count.clone(), m);
            assert_eq!(status, Status::Error, "{source}");
            assert_eq!(reason, format!("x: `{source}`: {message}"));
        }
        // Written in the expression: out of range whatever the date, so refused when the
        // check is built (and at compile time in `agent_test!`).
        if count.is_i64() || count.is_u64() {
            let source = format!("{func}(TODAY(), {count}, '{unit}')");
            let (status, reason) = verdict_of(json!("2026-11-22"), expr(source.as_str()));
            assert_eq!(status, Status::Error, "{source}");
            assert_eq!(
                reason,
                format!("x: invalid expression `{source}`: {message}")
            );
        }
    }
    // In range as a count, out of range as a result.
    for source in [
        "DATE_ADD('9999-12-31', 1, 'day')",
        "DATE_SUB(AT_TIME(TODAY(), '00:00'), 9999999999, 'minutes')",
        "DATE_ADD(TODAY(), 7304484, 'days')",
    ] {
        let (status, reason) = verdict_of(json!("2026-11-22"), expr(source));
        assert_eq!(status, Status::Error, "{source}");
        let func = &source[..8];
        assert_eq!(reason, format!("x: `{source}`: {func}: the result {range}"));
    }
    let (status, reason) = verdict_with_n(
        json!("2026-11-22"),
        json!(1.5),
        expr("DATE_ADD(TODAY(), N, 'hour')"),
    );
    assert_eq!(
        (status, reason.as_str()),
        (
            Status::Error,
            "x: `DATE_ADD(TODAY(), N, 'hour')`: the count must be a whole number, got 1.5"
        )
    );
    // In range, at the edges.
    let (status, reason) = verdict_of(
        json!("9999-12-30"),
        expr("DATE_ADD('9999-12-29', 1, 'day')"),
    );
    assert_eq!((status, reason.as_str()), (Status::Pass, ""));
}

#[test]
fn the_largest_tolerance_is_not_an_overflow() {
    // u32::MAX minutes is about 8,171 years.
    let (status, reason) = verdict_of(
        json!("9999-12-30T00:00:00Z"),
        date("TODAY()").tolerance_minutes(u32::MAX),
    );
    assert_eq!((status, reason.as_str()), (Status::Pass, ""));
    for tolerance in [0, u32::MAX] {
        let (status, reason) = verdict_of(
            json!("-009999-01-03T00:00:00Z"),
            date("TODAY()").tolerance_minutes(tolerance),
        );
        assert_eq!(status, Status::Fail);
        assert!(reason.ends_with(" min earlier)"), "{reason}");
        assert!(
            reason.starts_with("call at conversation position 0: x: expected "),
            "{reason}"
        );
    }
}

#[test]
fn deeply_nested_expressions_are_error_verdicts() {
    let levels = 5_000;
    let source = format!("{}'x'{}", "UPPER(".repeat(levels), ")".repeat(levels));
    let (status, reason) = verdict_of(json!("X"), expr(source.clone()));
    assert_eq!(status, Status::Error);
    assert_eq!(
        reason,
        format!(
            "x: invalid expression `{}…`: expression nested deeper than 64 levels at column 385",
            &source[..100]
        )
    );
    let fine = format!("{}'x'{}", "UPPER(".repeat(64), ")".repeat(64));
    assert_eq!(verdict_of(json!("X"), expr(fine)).0, Status::Pass);
}
