//! PromptKit's tool assertions: which tools were called (and not), with which arguments and
//! results, in which chain.

use serde_json::{Map, Value, json};

use super::super::super::read::{
    Problem, array, index, join, kind, object, open_object, opt_bool, opt_string, strings,
};
use super::{Ctx, Place, expected_arg, refuse_matcher, rendered_as};
use agent_test_core::check::{
    Expectation, IntoExpectation, ToolCheck, any_tool, forbidden_tools, no_tool, no_tool_errors,
    required_tools, tool, tool_chain, tool_sequence,
};
use agent_test_core::matcher::{IntoMatcher, Matcher, all_of, any_of, contains, exact, not, regex};

pub(super) fn tools_called(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let Some(tools) = cx.names(&["tool_names", "tools"])? else {
        return cx.misconfigured("no `tools` named");
    };
    let min = cx.count("min_calls")?;
    let max = cx.count("max_calls")?;
    let ignore_validation = cx.flag("ignore_validation")?;
    let require_args = cx.flag("require_args")?;
    if min == Some(0) && max.is_none() {
        return Err((
            cx.here("min_calls"),
            "expected at least 1: `min_calls: 0` with no `max_calls` can never fail".into(),
        ));
    }
    let turn = cx.place == Place::Turn;
    if min.unwrap_or(1) == 1 && max.is_none() && !ignore_validation && !require_args {
        // In a turn, a call whose result is an error does not count.
        let c = required_tools(tools);
        return cx.one(if turn { c.succeeded() } else { c });
    }
    let min = min.unwrap_or(1);
    Ok(tools
        .iter()
        .map(|t| {
            let mut c = tool(t.clone());
            c = match max {
                Some(max) => c.between(min, max),
                None => c.at_least(min),
            };
            if turn {
                c = if ignore_validation {
                    c.succeeded_or_invalid()
                } else {
                    c.succeeded()
                };
            }
            if require_args {
                // Only calls with arguments count.
                c = c.arguments(not(any_of([
                    exact(json!({})).into_matcher(),
                    exact(Value::Null).into_matcher(),
                ])));
            }
            cx.label(
                c.into_expectation(),
                (tools.len() > 1).then_some(t.as_str()),
            )
        })
        .collect())
}

pub(super) fn excluded_args(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let Some(name) = cx.text("tool_name")? else {
        return cx.misconfigured("no `tool_name`");
    };
    // `excluded_args: {arg: value}`, or the older `forbidden_args: {arg: [values]}`.
    let (key, map) = match (cx.p.get("excluded_args"), cx.p.get("forbidden_args")) {
        (Some(v), _) if !v.is_null() => ("excluded_args", v),
        (_, Some(v)) if !v.is_null() => ("forbidden_args", v),
        _ => return cx.misconfigured("no `excluded_args` to look for"),
    };
    let map = open_object(map, &cx.here(key))?;
    if map.is_empty() {
        return cx.misconfigured(format!("`{key}` is empty"));
    }
    let mut out = Vec::new();
    for (arg, v) in map {
        let here = join(&cx.here(key), arg);
        let values: Vec<&Value> = match v {
            Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        if values.is_empty() {
            return Err((here, "expected at least one value".into()));
        }
        for x in &values {
            refuse_matcher(x, &here, key, arg)?;
        }
        let m = any_of(values.into_iter().map(rendered_as));
        let e = cx.session(no_tool(name.clone()).arg(arg.clone(), m));
        out.push(cx.label(e, (map.len() > 1).then_some(arg.as_str())));
    }
    Ok(out)
}

pub(super) fn tool_calls_with_args(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let p = cx.p;
    let name = cx.text("tool_name")?;
    let mut c = match &name {
        Some(n) => tool(n.clone()),
        // Without a tool name the constraints apply to every call.
        None => any_tool(),
    };
    let mut constrained = false;
    for args_key in ["expected_args", "required_args"] {
        let Some(args) = p.get(args_key).filter(|a| !a.is_null()) else {
            continue;
        };
        let args_at = cx.here(args_key);
        for (arg, v) in open_object(args, &args_at)? {
            refuse_matcher(v, &join(&args_at, arg), args_key, arg)?;
            c = c.arg(arg.clone(), expected_arg(v));
            constrained = true;
        }
    }
    if let Some(m) = p.get("args_match").filter(|m| !m.is_null()) {
        constrained |= m.as_object().is_some_and(|o| !o.is_empty());
        c = args_match(c, m, &cx.here("args_match"))?;
    }
    let (mut c, result_constrained) = result_constraints(c, cx)?;
    constrained |= result_constrained;
    if cx.flag("no_error")? {
        c = c.no_error();
        constrained = true;
    }
    if name.is_none() && !constrained {
        return cx.misconfigured("no `tool_name` and no constraint");
    }
    cx.one(c.every_call())
}

/// `result_includes` (each pattern, case-insensitive) and `result_matches` on a call's result.
/// PromptKit reads a failed call's result as empty, so with either the call must not have
/// failed.
fn result_constraints(mut c: ToolCheck, cx: &Ctx<'_>) -> Result<(ToolCheck, bool), Problem> {
    result_constraints_in(&mut c, cx.p, &cx.at)?;
    let constrained = !strings(cx.p, "result_includes", &cx.at)?.is_empty()
        || opt_string(cx.p, "result_matches", &cx.at)?.is_some_and(|s| !s.is_empty());
    Ok((c, constrained))
}

fn result_constraints_in(
    c: &mut ToolCheck,
    o: &Map<String, Value>,
    at: &str,
) -> Result<(), Problem> {
    let includes = strings(o, "result_includes", at)?;
    let matches = opt_string(o, "result_matches", at)?.filter(|s| !s.is_empty());
    let mut next = c.clone();
    for pat in &includes {
        next = next.result(contains(pat.clone()).ignore_case());
    }
    if let Some(re) = &matches {
        next = next.result(regex(re.clone()));
    }
    if !includes.is_empty() || matches.is_some() {
        next = next.no_error();
    }
    *c = next;
    Ok(())
}

pub(super) fn chain(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let steps_at = cx.here("steps");
    let steps = array(cx.p, "steps", &cx.at)?;
    if steps.is_empty() {
        return cx.misconfigured("an empty `steps` chain");
    }
    let mut out = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let here = index(&steps_at, i);
        let o = object(
            s,
            &here,
            &[
                "tool",
                "result_includes",
                "result_matches",
                "args_match",
                "no_error",
            ],
        )?;
        let Some(name) = opt_string(o, "tool", &here)?.filter(|t| !t.is_empty()) else {
            return cx.misconfigured(format!("step {} names no `tool`", i + 1));
        };
        let mut c = tool(name);
        if let Some(m) = o.get("args_match").filter(|m| !m.is_null()) {
            c = args_match(c, m, &join(&here, "args_match"))?;
        }
        result_constraints_in(&mut c, o, &here)?;
        if opt_bool(o, "no_error", &here)?.unwrap_or(false) {
            c = c.no_error();
        }
        out.push(c);
    }
    cx.one(tool_chain(out))
}

pub(super) fn tool_result(cx: &Ctx<'_>, which: &str) -> Result<Vec<Expectation>, Problem> {
    let occurrence = cx.count("occurrence")?.unwrap_or(1);
    if occurrence == 0 {
        return cx.misconfigured("`occurrence: 0` can never fail");
    }
    let matcher = if which == "tool_result_includes" {
        let Some(patterns) = cx.names(&["patterns"])? else {
            return cx.misconfigured("no `patterns` to look for");
        };
        let all: Vec<Matcher> = patterns
            .into_iter()
            .map(|p| contains(p).ignore_case().into_matcher())
            .collect();
        if all.len() == 1 {
            all.into_iter().next().unwrap_or(Matcher::Any)
        } else {
            all_of(all)
        }
    } else {
        let Some(pattern) = cx.text("pattern")? else {
            return cx.misconfigured("no `pattern`");
        };
        regex(pattern)
    };
    let c = match opt_string(cx.p, "tool", &cx.at)?.filter(|t| !t.is_empty()) {
        Some(t) => tool(t),
        None => any_tool(),
    };
    // A failed call's result is empty in PromptKit: it never matches.
    cx.one(c.succeeded().result(matcher).at_least(occurrence))
}

/// `tools_not_called` and, over the conversation so far, `tools_not_called_session`.
pub(super) fn tools_not_called(cx: &Ctx<'_>, session: bool) -> Result<Vec<Expectation>, Problem> {
    let Some(tools) = cx.names(&["tools", "tool_names"])? else {
        return cx.misconfigured("no `tools` named");
    };
    let c = forbidden_tools(tools);
    Ok(vec![cx.label(
        if session {
            cx.session(c)
        } else {
            c.into_expectation()
        },
        None,
    )])
}

/// `tools_called_session`: every tool named was called in the conversation so far (with
/// `min_calls` above 1, one check per tool).
pub(super) fn tools_called_session(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let Some(tools) = cx.names(&["tool_names", "tools"])? else {
        return cx.misconfigured("no `tool_names` named");
    };
    match cx.count("min_calls")? {
        None | Some(0 | 1) => Ok(vec![cx.label(cx.session(required_tools(tools)), None)]),
        Some(n) => Ok(tools
            .iter()
            .map(|t| cx.label(cx.session(tool(t.clone()).at_least(n)), Some(t)))
            .collect()),
    }
}

/// `tool_args` and, over the conversation so far, `tool_args_session`: a call of the tool
/// whose arguments render as `expected_args` do.
pub(super) fn tool_args(cx: &Ctx<'_>, session: bool) -> Result<Vec<Expectation>, Problem> {
    let Some(name) = cx.text("tool_name")? else {
        return cx.misconfigured("no `tool_name`");
    };
    let args = match cx.p.get("expected_args") {
        None | Some(Value::Null) => None,
        Some(v) => Some(open_object(v, &cx.here("expected_args"))?).filter(|a| !a.is_empty()),
    };
    let Some(args) = args else {
        return cx.misconfigured("no `expected_args` to compare");
    };
    let mut c = tool(name);
    for (k, v) in args {
        refuse_matcher(v, &join(&cx.here("expected_args"), k), "expected_args", k)?;
        // Here `null` is a value (Go renders both sides `<nil>`): the argument is null.
        let m = if v.is_null() {
            exact(Value::Null).into_matcher()
        } else {
            rendered_as(v)
        };
        c = c.arg(k.clone(), m);
    }
    cx.one(if session {
        cx.session(c)
    } else {
        c.into_expectation()
    })
}

/// `tool_call_count`: how many calls of the tool (or of any tool) were made.
pub(super) fn tool_call_count(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let (min, max) = (cx.count("min")?, cx.count("max")?);
    let c = match opt_string(cx.p, "tool", &cx.at)?.filter(|t| !t.is_empty()) {
        Some(t) => tool(t),
        None => any_tool(),
    };
    let c = match (min, max) {
        (None, None) => return cx.misconfigured("neither `min` nor `max` is given"),
        (Some(0), None) => {
            return cx.misconfigured("`min: 0` with no `max` can never fail");
        }
        (Some(a), Some(b)) => c.between(a, b),
        (Some(a), None) => c.at_least(a),
        (None, Some(b)) => c.at_most(b),
    };
    cx.one(c)
}

/// `tool_call_sequence`: the tools were called in this order.
pub(super) fn sequence(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let Some(sequence) = cx.names(&["sequence"])? else {
        return cx.misconfigured("an empty `sequence`");
    };
    cx.one(tool_sequence(sequence))
}

/// `no_tool_errors`: no call (of the tools named, or of any) returned an error.
pub(super) fn no_errors(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let tools = strings(cx.p, "tools", &cx.at)?;
    cx.one(no_tool_errors().of_tools(tools))
}

/// `args_match` (at `at`): each argument must match its regex.
fn args_match(mut c: ToolCheck, m: &Value, at: &str) -> Result<ToolCheck, Problem> {
    for (arg, pattern) in open_object(m, at)? {
        let pattern = pattern.as_str().ok_or_else(|| {
            (
                join(at, arg),
                format!("expected a regex, got {}", kind(pattern)),
            )
        })?;
        c = c.arg(arg.clone(), regex(pattern));
    }
    Ok(c)
}
