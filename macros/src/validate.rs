//! Compile-time checks of what can be known before the test runs: regex literals, check ids
//! and dependencies, scenario names. Every problem is reported, at the user's span.

use std::collections::HashMap;

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

use crate::diag::Diagnostics;
use crate::keywords::suggestion;
use crate::literals::int_literal;
use crate::syntax::cursor::is_punct;
use crate::syntax::{Stmt, SuiteAst, UserExpr};
use crate::validate_settings::{check_pass_rates, check_repeats, check_tags};
use crate::vocabulary::{Arg, Vocabulary, WORDS};

pub(crate) fn validate(suite: &SuiteAst, diag: &mut Diagnostics) {
    validate_with(suite, &WORDS, diag);
}

/// [`validate`] with `words` saying what each function takes (a test adds a check kind).
pub(crate) fn validate_with(suite: &SuiteAst, words: &Vocabulary<'_>, diag: &mut Diagnostics) {
    // A scenario the parser could not read completely may look empty: that is said once the
    // input parses.
    let parsed = diag.is_empty();
    check_repeats(suite, diag);
    check_pass_rates(suite, diag);
    check_tags(suite, diag);
    let tools = crate::tools::declared(suite);
    let mut names: HashMap<String, Span> = HashMap::new();
    for s in &suite.scenarios {
        let name = s.name.to_string();
        if names.insert(name.clone(), s.name.span()).is_some() {
            diag.error(
                s.name.span(),
                format!(
                    "duplicate scenario `{name}`: scenario names must be unique (each names a test)"
                ),
            );
        }
        if parsed && !s.body.iter().any(is_step) {
            diag.error(
                s.name.span(),
                format!(
                    "empty scenario `{name}`: it has no steps and no checks, so it would test nothing"
                ),
            );
        }
        let mut expects = Vec::new();
        collect_expects(&s.body, &mut expects);
        let mut users = Vec::new();
        collect_simulated(&s.body, &mut users);
        for u in users {
            scan_calls(words, &u.tokens, &mut |callee, args| {
                if callee == "turns" {
                    check_turns(args, diag);
                }
            });
        }
        let mut vars: Vec<&str> = suite.context.iter().map(|e| e.key.as_str()).collect();
        for stmt in &s.body {
            if let Stmt::Context(entries) = stmt {
                vars.extend(entries.iter().map(|e| e.key.as_str()));
            }
        }
        for e in &expects {
            scan_calls(words, &e.tokens, &mut |callee, args| {
                check_literal(words, callee, args, &vars, diag)
            });
            check_json_literals(&e.tokens, diag);
            if let Some(tools) = &tools {
                crate::tools::check(&e.tokens, tools, diag);
            }
        }
        check_ids(&expects, diag);
    }
}

/// A statement that talks to the agent or checks something (not a setting, context or plain
/// Rust).
fn is_step(stmt: &Stmt) -> bool {
    matches!(
        stmt,
        Stmt::User { .. }
            | Stmt::System(_)
            | Stmt::History(_)
            | Stmt::Extract { .. }
            | Stmt::Simulate { .. }
            | Stmt::Expect(_)
    )
}

/// The simulated users (`simulate <user> { .. }`) of a body.
fn collect_simulated<'a>(body: &'a [Stmt], out: &mut Vec<&'a UserExpr>) {
    for stmt in body {
        match stmt {
            Stmt::Simulate { user, checks } => {
                out.push(user);
                collect_simulated(checks, out);
            }
            Stmt::User { checks, .. } => collect_simulated(checks, out),
            _ => {}
        }
    }
}

fn collect_expects<'a>(body: &'a [Stmt], out: &mut Vec<&'a UserExpr>) {
    for stmt in body {
        match stmt {
            Stmt::Expect(e) => out.push(e),
            Stmt::User { checks, .. } | Stmt::Simulate { checks, .. } => {
                collect_expects(checks, out)
            }
            _ => {}
        }
    }
}

/// Calls `visit(callee, args)` for every `name(args)` call in the tokens, at any depth, except
/// inside closures (their bodies are Rust, not checks).
fn scan_calls(
    words: &Vocabulary<'_>,
    tokens: &TokenStream,
    visit: &mut dyn FnMut(&str, &TokenStream),
) {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        // A closure starts here: its body is Rust, not checks.
        if is_punct(t, '|')
            && (i == 0
                || tokens
                    .get(i - 1)
                    .is_some_and(|p| is_punct(p, ',') || is_punct(p, '=')))
        {
            return;
        }
        let TokenTree::Group(g) = t else { continue };
        let callee = i.checked_sub(1).and_then(|p| match tokens.get(p) {
            Some(TokenTree::Ident(id)) => Some(id.to_string()),
            _ => None,
        });
        if g.delimiter() == Delimiter::Parenthesis
            && let Some(callee) = callee.as_deref()
        {
            if words.takes(callee, Arg::Closure) {
                continue;
            }
            visit(callee, &g.stream());
        }
        scan_calls(words, &g.stream(), visit);
    }
}

/// Checks the literal first argument of a call that takes a regex, an expression, a JSONPath
/// query or a JSON Schema, as `words` says what each function takes.
fn check_literal(
    words: &Vocabulary<'_>,
    callee: &str,
    args: &TokenStream,
    vars: &[&str],
    diag: &mut Diagnostics,
) {
    if words.takes(callee, Arg::Schema) {
        check_schema(args, diag);
        return;
    }
    match callee {
        "threshold" => return check_threshold(args, diag),
        "between" => return check_between(args, diag),
        "min_calls" => return check_min_calls(args, diag),
        "http_status" => return check_status(args, diag),
        _ => {}
    }
    let Some((text, span)) = first_string_arg(args) else {
        return;
    };
    if words.takes(callee, Arg::Regex) {
        if let Err(e) = regex_syntax::ParserBuilder::new().build().parse(&text) {
            diag.error(span, format!("invalid regex: {}", regex_error(&e)));
        }
    } else if words.takes(callee, Arg::Expression) {
        if let Err(errors) = agent_test_expr::compile(&text, Some(vars)) {
            for e in errors {
                let at = text
                    .get(e.span.clone())
                    .filter(|s| !s.is_empty() && s.len() < text.len());
                let at = at.map_or(String::new(), |s| format!(" (at `{s}`)"));
                diag.error(span, format!("invalid expression: {}{at}", e.message));
            }
        }
    } else if words.takes(callee, Arg::JsonPath) {
        check_json_path(&text, span, diag);
    } else if words.takes(callee, Arg::JmesPath) {
        check_jmespath(&text, span, diag);
    }
}

/// A JMESPath literal, compiled by the crate the runtime evaluates it with.
#[cfg(feature = "jmespath")]
fn check_jmespath(expression: &str, span: Span, diag: &mut Diagnostics) {
    if let Err(e) = jmespath::compile(expression) {
        let message = e.to_string();
        let message: Vec<&str> = message.lines().map(str::trim).collect();
        diag.error(span, format!("invalid JMESPath: {}", message.join(" ")));
    }
}

#[cfg(not(feature = "jmespath"))]
fn check_jmespath(_expression: &str, _span: Span, _diag: &mut Diagnostics) {}

/// A JSONPath literal: within the nesting limit the runtime applies, then parsed by the crate
/// the runtime evaluates it with.
#[cfg(feature = "jsonpath")]
fn check_json_path(query: &str, span: Span, diag: &mut Diagnostics) {
    if let Err(e) = agent_test_expr::json_path_limit::nesting(query) {
        diag.error(span, format!("invalid JSONPath: {e}"));
    } else if let Err(e) = serde_json_path::JsonPath::parse(query) {
        diag.error(span, format!("invalid JSONPath: {e}"));
    }
}

#[cfg(not(feature = "jsonpath"))]
fn check_json_path(_query: &str, _span: Span, _diag: &mut Diagnostics) {}

/// `json!({...})` (or `serde_json::json!`) with a literal body: validate against the
/// meta-schema.
fn check_schema(args: &TokenStream, diag: &mut Diagnostics) {
    let tokens: Vec<TokenTree> = args.clone().into_iter().collect();
    let Some(bang) = tokens.iter().position(|t| is_punct(t, '!')) else {
        return;
    };
    let is_json =
        bang > 0 && matches!(tokens.get(bang - 1), Some(TokenTree::Ident(i)) if i == "json");
    let Some(TokenTree::Group(body)) = tokens.get(bang + 1) else {
        return;
    };
    if !is_json
        || tokens.len() != bang + 2 && !tokens.get(bang + 2).is_some_and(|t| is_punct(t, ','))
    {
        return;
    }
    if let Some(schema) = crate::json_lit::literal_json(&body.stream()) {
        meta_validate(&schema, body.span(), diag);
    }
}

#[cfg(feature = "schema")]
fn meta_validate(schema: &serde_json::Value, span: Span, diag: &mut Diagnostics) {
    // Every problem of the literal, not only the first.
    let validator = match jsonschema::meta::validator_for(schema) {
        Ok(v) => v,
        Err(e) => return diag.error(span, format!("invalid JSON Schema: {e}")),
    };
    for e in validator.iter_errors(schema) {
        let at = e.instance_path().to_string();
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" at {at}")
        };
        diag.error(span, format!("invalid JSON Schema{at}: {e}"));
    }
}

#[cfg(not(feature = "schema"))]
fn meta_validate(_schema: &serde_json::Value, _span: Span, _diag: &mut Diagnostics) {}

fn regex_error(e: &regex_syntax::Error) -> String {
    match e {
        regex_syntax::Error::Parse(e) => {
            format!(
                "{} (at offset {} of the pattern)",
                e.kind(),
                e.span().start.offset
            )
        }
        regex_syntax::Error::Translate(e) => {
            format!(
                "{} (at offset {} of the pattern)",
                e.kind(),
                e.span().start.offset
            )
        }
        other => other
            .to_string()
            .lines()
            .last()
            .unwrap_or_default()
            .to_owned(),
    }
}

/// A judge threshold written as a number literal must lie in 0..=1.
fn check_threshold(args: &TokenStream, diag: &mut Diagnostics) {
    let tokens: Vec<TokenTree> = args.clone().into_iter().collect();
    let (negative, lit) = match tokens.as_slice() {
        [TokenTree::Literal(l)] => (false, l),
        [TokenTree::Punct(p), TokenTree::Literal(l)] if p.as_char() == '-' => (true, l),
        _ => return,
    };
    let Ok(value) = lit
        .to_string()
        .replace('_', "")
        .trim_end_matches("f64")
        .trim_end_matches("f32")
        .parse::<f64>()
    else {
        return;
    };
    if negative || !(0.0..=1.0).contains(&value) {
        diag.error(
            lit.span(),
            format!(
                "threshold {}{value} is outside 0..=1: a judge score goes from 0 (not at all) to 1 (fully)",
                if negative { "-" } else { "" }
            ),
        );
    }
}

/// `json!({...})` literals in a check: a key given twice (serde_json keeps the last one,
/// silently), and an object passed as an expected value that reads as a matcher
/// (`.arg("id", json!({"regex": "^ORD-"}))` compares with that object, it matches nothing).
fn check_json_literals(tokens: &TokenStream, diag: &mut Diagnostics) {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        let TokenTree::Group(g) = t else { continue };
        let before = |n: usize| i.checked_sub(n).and_then(|p| tokens.get(p));
        let is_json = before(1).is_some_and(|b| is_punct(b, '!'))
            && matches!(before(2), Some(TokenTree::Ident(id)) if id == "json");
        if is_json {
            duplicate_json_keys(&g.stream(), diag);
        } else {
            check_json_literals(&g.stream(), diag);
        }
        // `.arg("id", json!({...}))`: the value given to a method taking an expected value.
        let method = match before(1) {
            Some(TokenTree::Ident(id)) if before(2).is_some_and(|d| is_punct(d, '.')) => {
                Some(id.to_string())
            }
            _ => None,
        };
        if g.delimiter() == Delimiter::Parenthesis
            && let Some(method) = method.filter(|m| WORDS.takes(m, Arg::Value) || m == "args")
        {
            let args = arguments(&g.stream());
            let Some(value) = args.last() else { continue };
            if let [TokenTree::Ident(j), bang, TokenTree::Group(body)] = value.as_slice()
                && j == "json"
                && is_punct(bang, '!')
                && let Some(v) = crate::json_lit::literal_json(&body.stream())
            {
                let found = match (&v, method.as_str()) {
                    (serde_json::Value::Object(o), "args") => o.values().find_map(matcher_word),
                    (v, _) => matcher_word(v),
                };
                if let Some(word) = found {
                    diag.error(
                        body.span(),
                        format!(
                            "this `json!` object is compared as data, but reads as a matcher \
                             (`{word}`): matchers are functions (`{word}(..)`, see \
                             agent_test::matcher); to compare the object as it is, write \
                             `exact(json!(..))`"
                        ),
                    );
                }
            }
        }
    }
}

/// The key that makes an object (at any depth) read as a matcher rather than data, by the rule
/// the runtime's loaders apply to test files. `{"date": "2026-11-23"}` is data; `{"date":
/// "TODAY()"}` is not.
fn matcher_word(v: &serde_json::Value) -> Option<&str> {
    match v {
        serde_json::Value::Object(o) => {
            let entries: Vec<(&str, Option<&str>)> =
                o.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            agent_test_expr::matcher_words::matcher_key(&entries)
                .or_else(|| o.values().find_map(matcher_word))
        }
        serde_json::Value::Array(items) => items.iter().find_map(matcher_word),
        _ => None,
    }
}

/// Keys given twice in an object of a `json!` body, at any depth: each repeat is an error
/// on it.
fn duplicate_json_keys(body: &TokenStream, diag: &mut Diagnostics) {
    for t in body.clone() {
        let TokenTree::Group(g) = t else { continue };
        if g.delimiter() == Delimiter::Brace {
            let mut seen: Vec<String> = Vec::new();
            for entry in arguments(&g.stream()) {
                if let [TokenTree::Literal(key), colon, ..] = entry.as_slice()
                    && is_punct(colon, ':')
                    && let Ok(name) =
                        syn::parse2::<syn::LitStr>(TokenTree::Literal(key.clone()).into())
                {
                    let name = name.value();
                    if seen.contains(&name) {
                        diag.error(
                            key.span(),
                            format!(
                                "duplicate key `{name}` in `json!`: serde_json would keep only \
                                 this one; a key may appear only once in an object"
                            ),
                        );
                    } else {
                        seen.push(name);
                    }
                }
            }
        }
        duplicate_json_keys(&g.stream(), diag);
    }
}

/// A call's arguments, split at top-level commas.
fn arguments(args: &TokenStream) -> Vec<Vec<TokenTree>> {
    let mut out = vec![Vec::new()];
    for t in args.clone() {
        if is_punct(&t, ',') {
            out.push(Vec::new());
        } else if let Some(last) = out.last_mut() {
            last.push(t);
        }
    }
    if out.last().is_some_and(Vec::is_empty) {
        out.pop();
    }
    out
}

/// `between(min, max)` with literals: the minimum must not exceed the maximum.
fn check_between(args: &TokenStream, diag: &mut Diagnostics) {
    if let [min, max] = arguments(args).as_slice()
        && let (Some((min, span)), Some((max, _))) = (int_literal(min), int_literal(max))
        && min > max
    {
        diag.error(
            span,
            format!(
                "between({min}, {max}) can never pass: the minimum is greater than the maximum"
            ),
        );
    }
}

/// `min_calls(0)`: "invoked at least 0 times" can never fail.
fn check_min_calls(args: &TokenStream, diag: &mut Diagnostics) {
    if let [n] = arguments(args).as_slice()
        && let Some((0, span)) = int_literal(n)
    {
        diag.error(
            span,
            "agent_invoked(..).min_calls(0) can never fail: to require that an agent is not \
             invoked, use agent_not_invoked(..)",
        );
    }
}

/// `http_status(n)` with a literal: an HTTP status is from 100 to 599.
fn check_status(args: &TokenStream, diag: &mut Diagnostics) {
    if let [n] = arguments(args).as_slice()
        && let Some((n, span)) = int_literal(n)
        && !(100..=599).contains(&n)
    {
        diag.error(
            span,
            format!("http_status({n}) can never pass: an HTTP status is from 100 to 599"),
        );
    }
}

/// `turns(min..=max)` of a simulated user, with literals: at least one turn, and the minimum
/// not above the maximum.
fn check_turns(args: &TokenStream, diag: &mut Diagnostics) {
    let tokens: Vec<TokenTree> = args.clone().into_iter().collect();
    let Some(dots) = tokens.windows(3).position(
        |w| matches!(w, [a, b, c] if is_punct(a, '.') && is_punct(b, '.') && is_punct(c, '=')),
    ) else {
        return;
    };
    let (Some((min, span)), Some((max, max_span))) = (
        tokens.get(..dots).and_then(int_literal),
        tokens.get(dots + 3..).and_then(int_literal),
    ) else {
        return;
    };
    if max == 0 {
        diag.error(
            max_span,
            "at most 0 turns simulates nothing: the maximum must be at least 1",
        );
    } else if min > max {
        diag.error(
            span,
            format!(
                "at least {min} and at most {max} turns can never be met: the minimum is \
                 greater than the maximum"
            ),
        );
    }
}

/// The value and span of a call's first argument when it is a string literal.
fn first_string_arg(args: &TokenStream) -> Option<(String, Span)> {
    let mut it = args.clone().into_iter();
    let first = it.next()?;
    if it.next().is_some_and(|t| !is_punct(&t, ',')) {
        return None; // an expression starting with a literal, like `"a".to_owned()`
    }
    let TokenTree::Literal(l) = &first else {
        return None;
    };
    let lit = syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into()).ok()?;
    Some((lit.value(), l.span()))
}

/// `.id("..")` and `.depends_on("..")` in the top-level method chain of a check.
fn chain_calls(e: &UserExpr, method: &str) -> Vec<(String, Span)> {
    let tokens: Vec<TokenTree> = e.tokens.clone().into_iter().collect();
    let mut out = Vec::new();
    for w in tokens.windows(3) {
        if let [dot, TokenTree::Ident(m), TokenTree::Group(g)] = w
            && is_punct(dot, '.')
            && m == method
            && g.delimiter() == Delimiter::Parenthesis
            && let Some(arg) = first_string_arg(&g.stream())
        {
            out.push(arg);
        }
    }
    out
}

fn check_ids(expects: &[&UserExpr], diag: &mut Diagnostics) {
    let mut ids: Vec<(String, Span)> = Vec::new();
    for e in expects {
        for (id, span) in chain_calls(e, "id") {
            if ids.iter().any(|(x, _)| *x == id) {
                diag.error(span, format!("duplicate check id `{id}` in this scenario"));
            } else {
                ids.push((id, span));
            }
        }
    }
    let known: Vec<&str> = ids.iter().map(|(x, _)| x.as_str()).collect();
    let mut edges: HashMap<String, Vec<String>> = HashMap::new();
    for e in expects {
        let own: Vec<String> = chain_calls(e, "id").into_iter().map(|(x, _)| x).collect();
        for (dep, span) in chain_calls(e, "depends_on") {
            if !known.contains(&dep.as_str()) {
                diag.error(
                    span,
                    format!(
                        "no check in this scenario has the id `{dep}`{}",
                        suggestion(&dep, &known)
                    ),
                );
            } else if own.contains(&dep) {
                diag.error(span, format!("a check cannot depend on itself (`{dep}`)"));
            } else {
                for id in &own {
                    edges.entry(id.clone()).or_default().push(dep.clone());
                }
            }
        }
    }
    // A cycle among ids (a → b → a) can never be evaluated.
    if has_cycle(&edges) {
        for (id, span) in &ids {
            if let Some(path) = cycle_from(id, &edges) {
                diag.error(*span, format!("dependency cycle: {}", path.join(" → ")));
                break;
            }
        }
    }
}

/// Whether the dependency graph has a cycle: Kahn's algorithm, without recursion (a chain of
/// thousands of checks must not exhaust the stack) and in linear time.
fn has_cycle(edges: &HashMap<String, Vec<String>>) -> bool {
    let mut indegree: HashMap<&str, usize> = HashMap::new();
    for (from, tos) in edges {
        indegree.entry(from).or_default();
        for to in tos {
            let d = indegree.entry(to).or_default();
            *d = d.saturating_add(1);
        }
    }
    let mut ready: Vec<&str> = indegree
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(n, _)| *n)
        .collect();
    let mut removed = 0usize;
    while let Some(node) = ready.pop() {
        removed = removed.saturating_add(1);
        for to in edges.get(node).into_iter().flatten() {
            if let Some(d) = indegree.get_mut(to.as_str()) {
                *d = d.saturating_sub(1);
                if *d == 0 {
                    ready.push(to);
                }
            }
        }
    }
    removed < indegree.len()
}

/// The shortest path from `start` back to itself (`start → … → start`), breadth first.
fn cycle_from(start: &str, edges: &HashMap<String, Vec<String>>) -> Option<Vec<String>> {
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for next in edges.get(node).into_iter().flatten() {
            if next == start {
                let mut back = vec![start.to_owned()];
                let mut at = node;
                while at != start {
                    back.push(at.to_owned());
                    at = parent.get(at).copied().unwrap_or(start);
                }
                back.push(start.to_owned());
                back.reverse();
                return Some(back);
            }
            if !parent.contains_key(next.as_str()) {
                parent.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    None
}
