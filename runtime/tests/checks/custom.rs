use agent_test_runtime::check::{Outcome, Status};
use agent_test_runtime::model::Reply;
use agent_test_runtime::prelude::*;
use serde_json::json;

use super::{conv, one_turn, tool_call};

#[test]
fn closures_return_bool_result_or_outcome() {
    let t = one_turn(Reply::text("hello world").call(tool_call("a", json!({}))));
    assert_eq!(
        conv(&t, check("short", |cx| cx.reply().len() < 20)).status,
        Status::Pass
    );
    let v = conv(&t, check("shorter", |cx| cx.reply().len() < 5));
    assert_eq!((v.status, v.reason.as_str()), (Status::Fail, "shorter"));
    let v = conv(
        &t,
        check("one call", |cx| {
            if cx.tool_calls().len() == 2 {
                Ok(())
            } else {
                Err(format!("{} calls", cx.tool_calls().len()))
            }
        }),
    );
    assert_eq!(v.reason, "1 calls");
    let v = conv(
        &t,
        check("outcome", |_| {
            Outcome::fail("custom").expected(json!(1)).actual(json!(2))
        }),
    );
    assert_eq!(v.details.expected, Some(json!(1)));
}

#[test]
fn a_panicking_closure_is_an_error_not_a_crash() {
    let t = one_turn(Reply::text("x"));
    let v = conv(&t, check("boom", |_| -> bool { panic!("kaboom") }));
    assert_eq!(v.status, Status::Error);
    assert_eq!(v.reason, "custom check panicked: kaboom");
}
