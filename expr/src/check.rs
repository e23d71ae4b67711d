//! Static checks: arity, units, time literals, date literals, known variables.

use crate::{Error, Expr, ExprKind, Func, MAX_DEPTH, Unit, parse_path, parse_time_of_day};

/// The context variables that exist: with `Some(names)` other names are errors, `None` accepts
/// any name.
pub type Vars<'a> = [&'a str];

/// Every static problem of an expression (empty when it is fine).
///
/// ```
/// use agent_test_expr::{parse, validate};
/// let e = parse("AT_TIME(DATE_ADD(TODAY(), 2), '25:61')").unwrap();
/// let msgs: Vec<String> = validate(&e, None).into_iter().map(|e| e.message).collect();
/// assert_eq!(msgs, [
///     "invalid time '25:61': use '14:30', '09:00:00' or '3:30 PM'",
///     "DATE_ADD takes 3 arguments (DATE_ADD(date, count, unit)), got 2",
/// ]);
/// ```
pub fn validate(expr: &Expr, vars: Option<&Vars<'_>>) -> Vec<Error> {
    let mut errors = Vec::new();
    walk(expr, vars, &mut errors, 0);
    errors
}

/// `depth`: how many calls enclose `e`. A tree from [`parse`](crate::parse) is never deeper
/// than [`MAX_DEPTH`]; one built by hand is checked no deeper.
fn walk(e: &Expr, vars: Option<&Vars<'_>>, errors: &mut Vec<Error>, depth: usize) {
    if depth > MAX_DEPTH {
        errors.push(Error::new(
            format!("expression nested deeper than {MAX_DEPTH} levels"),
            e.span.clone(),
        ));
        return;
    }
    match &e.kind {
        ExprKind::Var(name) => {
            if let Some(known) = vars
                && !known.contains(&name.as_str())
            {
                let hint = crate::parse::closest(name, known)
                    .map_or(String::new(), |c| format!("; did you mean `{c}`?"));
                errors.push(Error::new(
                    format!("unknown context variable `{name}`{hint}"),
                    e.span.clone(),
                ));
            }
        }
        ExprKind::Str(_) | ExprKind::Int(_) | ExprKind::Num(_) => {}
        ExprKind::Call { func, args } => {
            let (min, max) = func.arity();
            if args.len() < min || args.len() > max {
                let wanted = if min == max {
                    min.to_string()
                } else {
                    format!("at least {min}")
                };
                errors.push(Error::new(
                    format!(
                        "{} takes {wanted} argument{} ({}), got {}",
                        func.name(),
                        if min == 1 && max == 1 { "" } else { "s" },
                        func.signature(),
                        args.len()
                    ),
                    e.span.clone(),
                ));
            }
            check_args(*func, args, errors);
            for a in args {
                walk(a, vars, errors, depth.saturating_add(1));
            }
        }
    }
}

fn check_args(func: Func, args: &[Expr], errors: &mut Vec<Error>) {
    let date_arg = matches!(
        func,
        Func::DateAdd | Func::DateSub | Func::AtTime | Func::FormatDate
    );
    if date_arg && let Some(d) = args.first() {
        match &d.kind {
            ExprKind::Int(_) | ExprKind::Num(_) => errors.push(Error::new(
                format!("{}: a number is not a date", func.name()),
                d.span.clone(),
            )),
            ExprKind::Str(s) if !looks_like_date(s) => errors.push(Error::new(
                format!(
                    "{}: '{s}' is not a date (use 'YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM')",
                    func.name()
                ),
                d.span.clone(),
            )),
            _ => {}
        }
    }
    match func {
        Func::DateAdd | Func::DateSub => {
            if let Some(n) = args.get(1)
                && matches!(n.kind, ExprKind::Str(_))
            {
                errors.push(Error::new(
                    format!("{}: the count must be a number", func.name()),
                    n.span.clone(),
                ));
            }
            // A literal count beyond the range of dates is out of range whatever the date.
            if let (Some(n), Some(ExprKind::Str(u))) = (args.get(1), args.get(2).map(|u| &u.kind))
                && let (ExprKind::Int(count), Some(unit)) = (&n.kind, Unit::parse(u))
                && count.unsigned_abs() > unit.max_count().unsigned_abs()
            {
                let plural = if *count == 1 { "" } else { "s" };
                errors.push(Error::new(
                    format!(
                        "{}: {count} {}{plural} is out of range (dates go from the year -9999 to 9999)",
                        func.name(),
                        unit.name()
                    ),
                    n.span.clone(),
                ));
            }
            if let Some(u) = args.get(2) {
                match &u.kind {
                    ExprKind::Str(s) if Unit::parse(s).is_none() => errors.push(Error::new(
                        format!("unknown unit '{s}': use day(s), hour(s), minute(s) or week(s)"),
                        u.span.clone(),
                    )),
                    ExprKind::Int(_) | ExprKind::Num(_) => errors.push(Error::new(
                        "the unit must be text: day(s), hour(s), minute(s) or week(s)",
                        u.span.clone(),
                    )),
                    _ => {}
                }
            }
        }
        Func::AtTime => {
            if let Some(t) = args.get(1)
                && let ExprKind::Str(s) = &t.kind
                && let Err(msg) = parse_time_of_day(s)
            {
                errors.push(Error::new(msg, t.span.clone()));
            }
        }
        Func::JsonExtract => {
            if let Some(p) = args.get(1)
                && let ExprKind::Str(s) = &p.kind
                && let Err(msg) = parse_path(s)
            {
                errors.push(Error::new(msg, p.span.clone()));
            }
        }
        _ => {}
    }
}

/// `YYYY-MM-DD`, optionally followed by `T` or a space and a time.
fn looks_like_date(s: &str) -> bool {
    let b = s.trim().as_bytes();
    b.len() >= 10
        && b.iter().take(10).enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
        && (b.len() == 10 || matches!(b.get(10), Some(b'T' | b't' | b' ')))
}

#[cfg(test)]
#[allow(clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use crate::parse;

    fn errors(src: &str) -> Vec<String> {
        let known = ["USER_ID", "ORDER_JSON"];
        match parse(src) {
            Err(e) => vec![e.message],
            Ok(e) => validate(&e, Some(&known))
                .into_iter()
                .map(|e| e.message)
                .collect(),
        }
    }

    #[test]
    fn accepts_the_documented_forms() {
        for ok in [
            "TODAY()",
            "TODAY",
            "NOW()",
            "DATE_ADD(TODAY(), 3, 'days')",
            "DATE_SUB(TODAY, 1, 'week')",
            "AT_TIME(TODAY(), '14:30')",
            "AT_TIME(DATE_ADD(TODAY(), 1, 'days'), '09:00:00')",
            "AT_TIME(TODAY(), '3:30 PM')",
            "FORMAT_DATE(TODAY(), '%Y-%m-%d')",
            "CONCAT('order-', USER_ID)",
            "UPPER(USER_ID)",
            "LOWER('X')",
            "JSON_EXTRACT(ORDER_JSON, 'items.0.sku')",
            "CONCAT('Reminder for ', FORMAT_DATE(DATE_ADD(TODAY, 1, 'day'), '%Y-%m-%d'))",
            "DATE_ADD('2026-01-31', 1, \"day\")",
            "date_add(today(), 2, 'hours')",
            "USER_ID",
            "'literal'",
            "42",
        ] {
            assert_eq!(errors(ok), Vec::<String>::new(), "{ok}");
        }
    }

    #[test]
    fn reports_problems() {
        assert_eq!(errors("TOMORROW()"), ["unknown function `TOMORROW`"]);
        assert_eq!(
            errors("FORMATDATE(TODAY(), '%Y')"),
            ["unknown function `FORMATDATE`; did you mean `FORMAT_DATE`?"]
        );
        assert_eq!(
            errors("UPPER('a', 'b')"),
            ["UPPER takes 1 argument (UPPER(text)), got 2"]
        );
        assert_eq!(
            errors("CONCAT()"),
            ["CONCAT takes at least 1 arguments (CONCAT(value, ...)), got 0"]
        );
        assert_eq!(
            errors("DATE_ADD(TODAY(), 'two', 'days')"),
            ["DATE_ADD: the count must be a number"]
        );
        assert_eq!(
            errors("DATE_SUB(TODAY(), -9223372036854775808, 'day')"),
            [
                "DATE_SUB: -9223372036854775808 days is out of range (dates go from the year -9999 to 9999)"
            ]
        );
        assert_eq!(
            errors("DATE_ADD(NOW(), 10518456961, 'minutes')"),
            [
                "DATE_ADD: 10518456961 minutes is out of range (dates go from the year -9999 to 9999)"
            ]
        );
        assert_eq!(
            errors("DATE_ADD(NOW(), -10518456960, 'minutes')"),
            Vec::<String>::new()
        );
        assert_eq!(
            errors("DATE_ADD(NOW(), 1043497, 'week')"),
            Vec::<String>::new()
        );
        assert_eq!(
            errors("DATE_ADD(TODAY(), 2, 'months')"),
            ["unknown unit 'months': use day(s), hour(s), minute(s) or week(s)"]
        );
        assert_eq!(
            errors("AT_TIME(TODAY(), '13:00 PM')"),
            ["invalid time '13:00 PM': use '14:30', '09:00:00' or '3:30 PM'"]
        );
        assert_eq!(
            errors("AT_TIME('tomorrow', '10:00')"),
            ["AT_TIME: 'tomorrow' is not a date (use 'YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM')"]
        );
        assert_eq!(
            errors("CONCAT(USER, 'x')"),
            ["unknown context variable `USER`; did you mean `USER_ID`?"]
        );
        assert_eq!(
            errors("CONCAT(PLAN, 'x')"),
            ["unknown context variable `PLAN`"]
        );
        assert_eq!(
            errors("JSON_EXTRACT(ORDER_JSON, 'a..b')"),
            ["invalid path 'a..b': use dot segments like 'items.0.sku'"]
        );
        assert_eq!(errors("UPPER('x'"), ["unclosed `(` of UPPER"]);
        assert_eq!(errors("'open"), ["unterminated string"]);
        assert_eq!(
            errors("TODAY() TODAY()"),
            ["unexpected text after the expression"]
        );
        assert_eq!(errors(""), ["empty expression"]);
        assert_eq!(
            errors("UPPER(,)"),
            ["expected a value, a function call or a variable"]
        );
        assert_eq!(errors("a # b"), ["unexpected character `#`"]);
        assert_eq!(errors("-"), ["invalid number `-`"]);
        assert_eq!(
            errors(&"9".repeat(400)),
            [format!("number `{}` is too large", "9".repeat(400))]
        );
        assert_eq!(errors("'é"), ["unterminated string"]);
        assert_eq!(errors("'\\"), ["unterminated string"]);
        assert_eq!(errors("é"), ["unexpected character `é`"]);
    }

    /// `levels` calls of `func` around `inner`, written `func(func(..inner..))`.
    fn nested(func: &str, levels: usize, inner: &str) -> String {
        format!(
            "{}{inner}{}",
            format!("{func}(").repeat(levels),
            ")".repeat(levels)
        )
    }

    #[test]
    fn whole_numbers_stay_exact() {
        for (src, kind) in [
            ("9223372036854775807", ExprKind::Int(i64::MAX.into())),
            ("-9223372036854775808", ExprKind::Int(i64::MIN.into())),
            ("18446744073709551617", ExprKind::Int(18446744073709551617)),
            ("1.5", ExprKind::Num(1.5)),
            (".5", ExprKind::Num(0.5)),
        ] {
            assert_eq!(parse(src).unwrap().kind, kind, "{src}");
        }
    }

    #[test]
    fn nesting_is_limited() {
        assert_eq!(
            errors(&nested("UPPER", MAX_DEPTH, "'x'")),
            Vec::<String>::new()
        );
        assert_eq!(
            errors(&nested("UPPER", MAX_DEPTH + 1, "'x'")),
            ["expression nested deeper than 64 levels at column 385"]
        );
        // The column counts characters, not bytes.
        assert_eq!(
            errors(&format!("CONCAT('é', {})", nested("LOWER", 70, "'x'"))),
            ["expression nested deeper than 64 levels at column 391"]
        );
        let e = parse(&nested("UPPER", 65, "'x'")).unwrap_err();
        assert_eq!(e.span, 384..389, "the span is the call's name");
    }

    /// Far deeper than any stack could take by recursion, on a small stack: an error, no crash.
    #[test]
    fn very_deep_input_is_an_error_on_a_small_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let deep = nested("UPPER", 100_000, "'x'");
                let unclosed = "UPPER(".repeat(100_000);
                (errors(&deep), errors(&unclosed))
            })
            .unwrap();
        let (deep, unclosed) = handle.join().unwrap();
        assert_eq!(
            deep,
            ["expression nested deeper than 64 levels at column 385"]
        );
        assert_eq!(
            unclosed,
            ["expression nested deeper than 64 levels at column 385"]
        );
    }

    /// A tree built by hand is checked no deeper than a parsed one could be.
    #[test]
    fn validate_stops_at_the_limit_on_hand_built_trees() {
        let mut e = parse("'x'").unwrap();
        for _ in 0..200 {
            e = Expr {
                kind: ExprKind::Call {
                    func: Func::Upper,
                    args: vec![e],
                },
                span: 0..1,
            };
        }
        let found = validate(&e, None);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].message, "expression nested deeper than 64 levels");
        assert!(e.variables().is_empty());
    }
}
