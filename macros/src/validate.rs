//! Compile-time checks of what can be known before the test runs: regex literals, check ids
//! and dependencies, scenario names. Every problem is reported, at the user's span.

use std::collections::HashMap;

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

use crate::diag::Diagnostics;
use crate::keywords::suggestion;
use crate::syntax::cursor::is_punct;
use crate::syntax::{Stmt, SuiteAst, UserExpr};

/// Methods and functions whose first argument is a regex.
const REGEX_TAKERS: &[&str] = &["matches", "not_matches", "regex"];

/// Functions whose first argument is an expression (`TODAY()`, `DATE_ADD(..)`, ...).
const EXPR_TAKERS: &[&str] = &["date", "expr"];

/// Functions whose first argument is a JSONPath query.
const JSONPATH_TAKERS: &[&str] = &["json_path"];

/// Functions whose first argument is a JSON Schema, usually a `json!({...})` literal.
const SCHEMA_TAKERS: &[&str] = &["schema", "matches_schema"];

/// Functions whose arguments hold closures: not scanned (a closure may call `str::matches`).
const CLOSURE_TAKERS: &[&str] = &["check", "compare_with"];

pub(crate) fn validate(suite: &SuiteAst, diag: &mut Diagnostics) {
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
        let mut expects = Vec::new();
        collect_expects(&s.body, &mut expects);
        let mut vars: Vec<&str> = suite.context.iter().map(|e| e.key.as_str()).collect();
        for stmt in &s.body {
            if let Stmt::Context(entries) = stmt {
                vars.extend(entries.iter().map(|e| e.key.as_str()));
            }
        }
        for e in &expects {
            scan_calls(&e.tokens, &mut |callee, args| {
                check_literal(callee, args, &vars, diag)
            });
        }
        check_ids(&expects, diag);
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
fn scan_calls(tokens: &TokenStream, visit: &mut dyn FnMut(&str, &TokenStream)) {
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
            if CLOSURE_TAKERS.contains(&callee) {
                continue;
            }
            visit(callee, &g.stream());
        }
        scan_calls(&g.stream(), visit);
    }
}

/// Checks the literal first argument of a call that takes a regex, an expression, a JSONPath
/// query or a JSON Schema.
fn check_literal(callee: &str, args: &TokenStream, vars: &[&str], diag: &mut Diagnostics) {
    if SCHEMA_TAKERS.contains(&callee) {
        check_schema(args, diag);
        return;
    }
    if callee == "threshold" {
        check_threshold(args, diag);
        return;
    }
    let Some((text, span)) = first_string_arg(args) else {
        return;
    };
    if REGEX_TAKERS.contains(&callee) {
        if let Err(e) = regex_syntax::ParserBuilder::new().build().parse(&text) {
            diag.error(span, format!("invalid regex: {}", regex_error(&e)));
        }
    } else if EXPR_TAKERS.contains(&callee) {
        if let Err(errors) = agent_test_expr::compile(&text, Some(vars)) {
            for e in errors {
                let at = text
                    .get(e.span.clone())
                    .filter(|s| !s.is_empty() && s.len() < text.len());
                let at = at.map_or(String::new(), |s| format!(" (at `{s}`)"));
                diag.error(span, format!("invalid expression: {}{at}", e.message));
            }
        }
    } else if JSONPATH_TAKERS.contains(&callee) {
        check_json_path(&text, span, diag);
    }
}

/// How deep brackets and parentheses may nest in a JSONPath literal (the runtime's limit):
/// the parser recurses into each and takes time exponential in nested filters, so a deeper
/// literal would crash or hang the compiler.
#[cfg(feature = "jsonpath")]
const MAX_JSONPATH_NESTING: usize = 10;

#[cfg(feature = "jsonpath")]
fn check_json_path(query: &str, span: Span, diag: &mut Diagnostics) {
    if let Some(column) = json_path_too_deep(query) {
        diag.error(
            span,
            format!(
                "invalid JSONPath: brackets nest deeper than {MAX_JSONPATH_NESTING} levels at column {column}"
            ),
        );
    } else if let Err(e) = serde_json_path::JsonPath::parse(query) {
        diag.error(span, format!("invalid JSONPath: {e}"));
    }
}

/// The column (1-based) of the first bracket or parenthesis nested deeper than
/// [`MAX_JSONPATH_NESTING`] outside string literals.
#[cfg(feature = "jsonpath")]
fn json_path_too_deep(query: &str) -> Option<usize> {
    let (mut depth, mut quote, mut escaped) = (0usize, None, false);
    for (column, c) in query.chars().enumerate() {
        match (quote, c) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[' | '(') => {
                depth = depth.saturating_add(1);
                if depth > MAX_JSONPATH_NESTING {
                    return Some(column.saturating_add(1));
                }
            }
            (None, ']' | ')') => depth = depth.saturating_sub(1),
            (None, _) => {}
        }
    }
    None
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
    if let Err(e) = jsonschema::meta::validate(schema) {
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
