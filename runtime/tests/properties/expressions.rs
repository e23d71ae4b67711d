//! The expression language: parsing and static checks (what `agent_test!` runs at compile
//! time), evaluation, and the `date(..)` / `expr(..)` matchers built on it.

use agent_test_runtime::expression::{Env, Expression};
use agent_test_runtime::matcher::{IntoMatcher, Mismatch, date, expr};
use agent_test_runtime::model::Context;
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};
use proptest::prelude::*;
use serde_json::Value;

use crate::{arb_json, assert_message, config, odd_number, odd_string};

const FUNCTIONS: &[&str] = &[
    "TODAY",
    "NOW",
    "DATE_ADD",
    "DATE_SUB",
    "AT_TIME",
    "FORMAT_DATE",
    "CONCAT",
    "UPPER",
    "LOWER",
    "JSON_EXTRACT",
    "date_add",
    "DATEADD",
    "TOMORROW",
];

const VARIABLES: &[&str] = &["USER_ID", "ORDER_JSON", "N", "D", "X", "MISSING"];

/// Literals the functions care about: units, times, formats, paths, dates at the edges.
const LITERALS: &[&str] = &[
    "'day'",
    "'days'",
    "'hours'",
    "'minute'",
    "'weeks'",
    "'fortnight'",
    "'14:30'",
    "'09:00:00'",
    "'3:30 PM'",
    "'12:00 am'",
    "'13:00 PM'",
    "'%Y-%m-%d'",
    "'%A %e %B %Y %H:%M:%S %z %Z %Q'",
    "'%'",
    "'items.0.sku'",
    "'items[0].sku'",
    "'a..b'",
    "'2026-11-23'",
    "'2026-11-23T09:30:00'",
    "'9999-12-31'",
    "'-009999-01-01'",
    "\"double\"",
    "'it\\'s'",
    "0",
    "1",
    "-1",
    "1.5",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "170141183460469231731687303715884105728",
    "10518456960",
    "7304484",
];

/// A string literal of the language, quoted and escaped.
fn quoted(s: &str, double: bool) -> String {
    let q = if double { '"' } else { '\'' };
    let mut out = String::from(q);
    for c in s.chars() {
        if c == q || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(q);
    out
}

/// Expression text built from the grammar (so that most of it parses, and evaluation is
/// reached), with odd literals and wrong arities mixed in.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        3 => proptest::sample::select(LITERALS).prop_map(str::to_owned),
        2 => proptest::sample::select(VARIABLES).prop_map(str::to_owned),
        1 => Just("TODAY".to_owned()),
        1 => Just("NOW()".to_owned()),
        2 => (odd_string(), any::<bool>()).prop_map(|(s, d)| quoted(&s, d)),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => any::<f64>().prop_map(|f| format!("{f:?}")),
    ];
    leaf.prop_recursive(8, 64, 4, |inner| {
        (
            proptest::sample::select(FUNCTIONS),
            proptest::collection::vec(inner, 0..5),
        )
            .prop_map(|(f, args)| format!("{f}({})", args.join(", ")))
    })
}

/// Text made of the language's tokens in any order: unbalanced, unterminated, misplaced.
fn token_soup() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        proptest::sample::select(vec![
            "(", ")", ",", "'", "\"", "\\", "-", ".", " ", "\t", "é", "𝕏", "#", "0", "9",
        ])
        .prop_map(str::to_owned),
        proptest::sample::select(FUNCTIONS).prop_map(str::to_owned),
        proptest::sample::select(LITERALS).prop_map(str::to_owned),
    ];
    proptest::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

/// Any text at all, the grammar's, or its tokens in disorder.
fn source() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        token_soup(),
        expression(),
        // Deeply nested, far beyond the limit.
        (1usize..400, proptest::sample::select(FUNCTIONS))
            .prop_map(|(n, f)| { format!("{}'x'{}", format!("{f}(").repeat(n), ")".repeat(n)) }),
    ]
}

const ZONES: &[&str] = &[
    "UTC",
    "Europe/Lisbon",
    "America/St_Johns",
    "Asia/Kathmandu",
    "Pacific/Kiritimati",
    "Etc/GMT+12",
    "America/Sao_Paulo",
];

/// "Now" anywhere in jiff's range, in time zones with odd offsets and DST rules.
fn now() -> impl Strategy<Value = Zoned> {
    let min = Timestamp::MIN.as_second() + 2 * 86_400;
    let max = Timestamp::MAX.as_second() - 2 * 86_400;
    let second = prop_oneof![
        3 => 0i64..4_102_444_800,
        1 => min..max,
        1 => proptest::sample::select(vec![min, max, 0, -1]),
    ];
    (second, proptest::sample::select(ZONES)).prop_map(|(s, tz)| {
        Timestamp::from_second(s)
            .unwrap()
            .to_zoned(TimeZone::get(tz).unwrap())
    })
}

/// Context variables of every type, JSON text included.
fn context() -> impl Strategy<Value = Context> {
    (
        arb_json(),
        arb_json(),
        odd_number(),
        odd_string(),
        odd_string(),
    )
        .prop_map(|(user, order, n, d, x)| {
            let mut c = Context::default();
            c.insert("USER_ID", user);
            c.insert("ORDER_JSON", Value::String(order.to_string()));
            c.insert("N", n);
            c.insert("D", d);
            c.insert("X", x);
            c
        })
}

/// An error of the expression crate: a message, and a span that is a valid range of the
/// source on character boundaries (the macro cuts the source at it).
fn check_error(source: &str, e: &agent_test_expr::Error) {
    assert_message(&e.message, &source.escape_debug());
    let span = e.span.clone();
    assert!(
        span.start <= span.end
            && span.end <= source.len()
            && source.is_char_boundary(span.start)
            && source.is_char_boundary(span.end),
        "span {span:?} of {:?} in {source:?}",
        e.message
    );
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn parsing_and_checking_never_panic(source in source()) {
        match agent_test_expr::parse(&source) {
            Err(e) => check_error(&source, &e),
            Ok(e) => {
                for problem in agent_test_expr::validate(&e, Some(&VARIABLES[..5])) {
                    check_error(&source, &problem);
                }
                let _ = e.variables();
            }
        }
    }
}

proptest! {
    #![proptest_config(config(384))]

    #[test]
    fn evaluation_never_panics(
        source in prop_oneof![4 => expression(), 1 => source()],
        now in now(),
        context in context(),
        actual in prop_oneof![arb_json(), Just(Value::String("2026-11-23T09:30:00Z".into()))],
        tolerance in prop_oneof![Just(0u32), Just(u32::MAX), any::<u32>()],
    ) {
        let env = Env::new(&now, &context);
        match Expression::new(source.as_str()).eval(&env) {
            Ok(value) => {
                let _ = value.to_json();
            }
            Err(e) => assert_message(&e.to_string(), &source.escape_debug()),
        }
        // The matchers built on it: an error verdict or a comparison, never a panic.
        for m in [expr(source.as_str()), date(source.as_str()).tolerance_minutes(tolerance).into_matcher()] {
            for a in [Some(&actual), None] {
                if let Err(Mismatch::Fail(e) | Mismatch::Error(e)) = m.check(a, &env) {
                    assert_message(&e, &source.escape_debug());
                }
            }
            let _ = m.describe();
        }
    }
}
