//! How a matcher with a value compares it with the actual one: an expression's value, text
//! containment, a regex, a date within a tolerance, a JSON Schema, an email address. Each says,
//! in one line, why a value does not match.

use serde_json::Value;

use super::{
    ExactOptions, Mismatch, Schema, SchemaError, email as addresses, exact_eq, fail, instant_of,
    render, text, tolerance,
};
use crate::compare::expression::{Env, ExprValue, Expression};
use crate::compare::pattern::Pattern;

/// The value of an expression (`expr("CONCAT('a', 'b')")`): equal JSON, or the same instant.
pub(super) fn expression(
    expression: &Expression,
    actual: Option<&Value>,
    env: &Env<'_>,
) -> Result<(), Mismatch> {
    let expected = expression
        .eval(env)
        .map_err(|e| Mismatch::Error(e.to_string()))?;
    let Some(a) = actual else {
        return fail(format!(
            "missing (expected {})",
            crate::util::text::shown(&expected.to_json())
        ));
    };
    let ok = match &expected {
        ExprValue::Json(v) => exact_eq(v, a, ExactOptions::default()),
        when => instant_of(when, env).is_some_and(|e| {
            render(a)
                .ok()
                .and_then(|s| crate::compare::clock::parse_instant(&s, env.now.time_zone()))
                .is_some_and(|x| x.timestamp() == e.timestamp())
        }),
    };
    if ok {
        Ok(())
    } else {
        fail(format!(
            "expected {} (= {}), got {}",
            crate::util::text::shown(&expected.to_json()),
            expression.source(),
            crate::util::text::shown(a)
        ))
    }
}

/// Text containing `value`, as literal text (optionally without case).
pub(super) fn contains(
    value: &str,
    ignore_case: bool,
    actual: Option<&Value>,
) -> Result<(), Mismatch> {
    let Some(a) = actual else {
        return fail(format!("missing (expected text containing {value:?})"));
    };
    let found = crate::compare::text_search::find(
        &text(a),
        value,
        crate::compare::text_search::Anchor::None,
        ignore_case,
    )
    .map_err(Mismatch::Error)?
    .is_some();
    if found {
        Ok(())
    } else {
        fail(format!(
            "expected text containing {value:?}, got {}",
            crate::util::text::shown(a)
        ))
    }
}

/// A match of a regex anywhere in the text.
pub(super) fn regex(pattern: &Pattern, actual: Option<&Value>) -> Result<(), Mismatch> {
    let re = pattern.regex().map_err(|e| Mismatch::Error(e.to_owned()))?;
    let Some(a) = actual else {
        return fail(format!(
            "missing (expected a match of /{}/)",
            pattern.source()
        ));
    };
    let text = text(a);
    if re.is_match(&text) {
        Ok(())
    } else {
        fail(format!(
            "expected a match of /{}/, got {}",
            pattern.source(),
            crate::util::text::shown(a)
        ))
    }
}

/// A date within `tolerance_minutes` of the instant an expression gives.
pub(super) fn date(
    expression: &Expression,
    tolerance_minutes: u32,
    actual: Option<&Value>,
    env: &Env<'_>,
) -> Result<(), Mismatch> {
    let expected = expression
        .eval(env)
        .map_err(|e| Mismatch::Error(e.to_string()))?;
    let Some(expected_at) = instant_of(&expected, env) else {
        return Err(Mismatch::Error(format!(
            "`{}` is not a date: {}",
            expression.source(),
            crate::util::text::shown(&expected.to_json())
        )));
    };
    let want = format!(
        "{}{}",
        crate::util::text::shown(&expected.to_json()),
        tolerance(tolerance_minutes)
    );
    let Some(a) = actual else {
        return fail(format!("missing (expected {want})"));
    };
    let Some(actual_at) = render(a)
        .ok()
        .and_then(|s| crate::compare::clock::parse_instant(&s, env.now.time_zone()))
    else {
        return fail(format!(
            "expected a date {want}, got {} (not a date)",
            crate::util::text::shown(a)
        ));
    };
    let minutes = actual_at
        .timestamp()
        .duration_since(expected_at.timestamp())
        .as_secs() as f64
        / 60.0;
    if minutes.abs() <= f64::from(tolerance_minutes) {
        Ok(())
    } else {
        let dir = if minutes > 0.0 { "later" } else { "earlier" };
        fail(format!(
            "expected {want}, got {} ({} min {dir})",
            crate::util::text::shown(a),
            minutes.abs().round()
        ))
    }
}

/// A value valid against a JSON Schema.
pub(super) fn schema(schema: &Schema, actual: Option<&Value>) -> Result<(), Mismatch> {
    let Some(a) = actual else {
        return fail(format!(
            "missing (expected a value valid against {})",
            crate::util::text::shown(schema.schema())
        ));
    };
    match schema.validate(a) {
        Err(SchemaError::Unusable(e)) => Err(Mismatch::Error(e)),
        Ok(()) => Ok(()),
        Err(SchemaError::Invalid(problems)) => fail(format!(
            "{} is not valid against {}: {}",
            crate::util::text::shown(a),
            crate::util::text::shown(schema.schema()),
            problems.join("; ")
        )),
    }
}

/// The same email address (local part exact, domain without case).
pub(super) fn email(address: &str, actual: Option<&Value>) -> Result<(), Mismatch> {
    let Some(a) = actual else {
        return fail(format!("missing (expected the email {address:?})"));
    };
    let ok = a
        .as_str()
        .is_some_and(|s| addresses::same_address(address, s));
    if ok {
        Ok(())
    } else {
        fail(format!(
            "expected the email {address:?}, got {}",
            crate::util::text::shown(a)
        ))
    }
}
