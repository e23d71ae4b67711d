//! Literals and chains that cannot be what the user meant, caught before rustc sees them:
//! each gets a targeted error on its span, and the expansion gets a form that type-checks, so
//! rustc adds no second, less helpful error (a list of unrelated `From` impls, a mismatched
//! type on the whole invocation).

use proc_macro2::{Delimiter, Group, Literal, Span, TokenStream, TokenTree};

use crate::diag::Diagnostics;
use crate::syntax::cursor::is_punct;
use crate::syntax::{Stmt, SuiteAst, UserExpr};
use crate::vocabulary::WORDS;

pub(crate) fn fix(suite: &mut SuiteAst, diag: &mut Diagnostics) {
    // Settings of the wrong type: reported, and emitted as unused values instead.
    let mut kept = Vec::new();
    for s in std::mem::take(&mut suite.settings) {
        if let Some(message) = setting_problem(&s.name.to_string(), &s.value) {
            diag.error(s.value.span, message);
            suite.orphans.push(s.value);
        } else {
            kept.push(s);
        }
    }
    suite.settings = kept;
    for s in &mut suite.scenarios {
        fix_body(&mut s.body, diag);
    }
}

fn fix_body(body: &mut [Stmt], diag: &mut Diagnostics) {
    for stmt in body.iter_mut() {
        match stmt {
            Stmt::Setting { name, value } => {
                if let Some(message) = setting_problem(&name.to_string(), value) {
                    diag.error(value.span, message);
                    let braced = value.braced();
                    *stmt = Stmt::Rust(quote::quote! { let _ = #braced; });
                }
            }
            Stmt::User { input, checks, .. } => {
                text_message(input, "user", "a user message", diag);
                fix_body(checks, diag);
            }
            Stmt::System(input) => text_message(input, "system", "a system message", diag),
            Stmt::Simulate { checks, .. } => fix_body(checks, diag),
            Stmt::Expect(e) => {
                e.tokens = text_literals(&e.tokens, diag);
                options_last(e, diag);
            }
            _ => {}
        }
    }
}

/// A literal of another kind than text: `42`, `1.5`, `true`, `'x'`.
fn non_text_literal(tokens: &[TokenTree]) -> Option<(String, Span)> {
    match tokens {
        [TokenTree::Literal(l)] => {
            let s = l.to_string();
            let text = s.starts_with('"') || s.starts_with('r') || s.starts_with('b');
            (!text).then(|| (s.trim_matches('\'').to_owned(), l.span()))
        }
        [TokenTree::Ident(b)] if b == "true" || b == "false" => Some((b.to_string(), b.span())),
        [TokenTree::Punct(m), TokenTree::Literal(l)]
            if m.as_char() == '-' && !l.to_string().starts_with('"') =>
        {
            Some((format!("-{l}"), m.span()))
        }
        _ => None,
    }
}

/// A string literal with `text`, at `span`.
fn string_at(text: &str, span: Span) -> TokenTree {
    let mut lit = Literal::string(text);
    lit.set_span(span);
    TokenTree::Literal(lit)
}

/// `user 42;`: a message is text.
fn text_message(input: &mut UserExpr, word: &str, what: &str, diag: &mut Diagnostics) {
    let tokens: Vec<TokenTree> = input.tokens.clone().into_iter().collect();
    if let Some((text, span)) = non_text_literal(&tokens) {
        diag.error(
            span,
            format!("{what} is text, not `{text}`: write `{word} \"{text}\";`"),
        );
        input.tokens = string_at(&text, span).into();
    }
}

/// `contains(42)`: the first argument of a function taking text, given a number (or boolean,
/// or character) literal.
fn text_literals(tokens: &TokenStream, diag: &mut Diagnostics) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    for (i, t) in tokens.iter().enumerate() {
        let TokenTree::Group(g) = t else {
            out.push(t.clone());
            continue;
        };
        let callee = i.checked_sub(1).and_then(|p| match tokens.get(p) {
            Some(TokenTree::Ident(id)) => Some(id.to_string()),
            _ => None,
        });
        let mut inner = text_literals(&g.stream(), diag);
        if g.delimiter() == Delimiter::Parenthesis
            && let Some(callee) = callee.filter(|c| WORDS.takes_text(c))
        {
            let args: Vec<TokenTree> = inner.clone().into_iter().collect();
            let first_len = args
                .iter()
                .position(|t| is_punct(t, ','))
                .unwrap_or(args.len());
            if let Some((text, span)) = non_text_literal(args.get(..first_len).unwrap_or_default())
            {
                diag.error(
                    span,
                    format!("`{callee}` takes text, not `{text}`: write `{callee}(\"{text}\")`"),
                );
                let rest = args.get(first_len..).unwrap_or_default().iter().cloned();
                inner = std::iter::once(string_at(&text, span))
                    .chain(rest)
                    .collect();
            }
        }
        let mut group = Group::new(g.delimiter(), inner);
        group.set_span(g.span());
        out.push(TokenTree::Group(group));
    }
    out.into_iter().collect()
}

/// `tool("x").warning().arg("a", 1)`: an option before the check's own methods. Reported on
/// the method, and the chain is emitted with the options last.
fn options_last(e: &mut UserExpr, diag: &mut Diagnostics) {
    let tokens: Vec<TokenTree> = e.tokens.clone().into_iter().collect();
    let Some(start) = tokens.iter().position(|t| is_punct(t, '.')) else {
        return;
    };
    let (head, rest) = tokens.split_at(start);
    let mut calls: Vec<&[TokenTree]> = Vec::new();
    for call in rest.chunks(3) {
        match call {
            [dot, TokenTree::Ident(_), TokenTree::Group(g)]
                if is_punct(dot, '.') && g.delimiter() == Delimiter::Parenthesis =>
            {
                calls.push(call);
            }
            _ => return, // not a plain method chain: left to rustc
        }
    }
    let name = |call: &[TokenTree]| match call.get(1) {
        Some(TokenTree::Ident(i)) => i.to_string(),
        _ => String::new(),
    };
    let mut option: Option<String> = None;
    let mut misplaced = false;
    for call in &calls {
        let method = name(call);
        if WORDS.is_option(&method) {
            option.get_or_insert(method);
        } else if let Some(opt) = &option {
            misplaced = true;
            diag.error(
                call.get(1).map_or(e.span, TokenTree::span),
                format!(
                    "`.{method}(..)` comes after the option `.{opt}(..)`: options (`id`, \
                     `depends_on`, `warning`, `severity`, `label`, `so_far`) go last, after the \
                     check's own methods"
                ),
            );
        }
    }
    if misplaced {
        let (options, own): (Vec<&[TokenTree]>, Vec<&[TokenTree]>) =
            calls.into_iter().partition(|c| WORDS.is_option(&name(c)));
        e.tokens = head
            .iter()
            .cloned()
            .chain(own.into_iter().chain(options).flatten().cloned())
            .collect();
    }
}

/// What is wrong with a setting's value, when it is a literal of the wrong kind.
fn setting_problem(name: &str, value: &UserExpr) -> Option<String> {
    let tokens: Vec<TokenTree> = value.tokens.clone().into_iter().collect();
    let (kind, text) = literal_kind(&tokens)?;
    let message = match (name, kind) {
        ("timeout", Kind::Int) => format!(
            "a timeout is a `Duration`, not a number: write `timeout = Duration::from_secs({text});`"
        ),
        ("timeout", Kind::Float) => format!(
            "a timeout is a `Duration`, not a number: write `timeout = Duration::from_secs_f64({text});`"
        ),
        ("timeout", _) => {
            "a timeout is a `Duration`: write `timeout = Duration::from_secs(30);`".to_owned()
        }
        ("repeat" | "min_passes", Kind::Int) => return None,
        ("repeat" | "min_passes", _) => {
            format!("`{name}` is a number of runs: write `{name} = 3;`")
        }
        ("min_pass_rate", Kind::Float) => return None,
        ("min_pass_rate", _) => format!(
            "`min_pass_rate` is a pass rate from 0 to 1 (at 95% confidence) or a pair \
             `(rate, confidence)`, not `{text}`: write `min_pass_rate = (0.9, 0.95);`"
        ),
        ("clock", Kind::Str) => {
            format!("`clock` is a `Clock`, not text: write `clock = Clock::fixed({text});`")
        }
        ("clock", _) => {
            "`clock` is a `Clock`: write `clock = Clock::fixed(\"2026-11-23T09:30:00Z\");`"
                .to_owned()
        }
        ("timezone", Kind::Str) => return None,
        ("timezone", _) => {
            "`timezone` is an IANA time-zone name: write `timezone = \"Europe/Lisbon\";`".to_owned()
        }
        ("judge", Kind::Str) => format!(
            "`judge` is a `Judge`, not text: write `judge = Judge::openai({text});` (or `Judge::from_env()`)"
        ),
        ("judge", _) => "`judge` is a `Judge`: write `judge = Judge::from_env();`".to_owned(),
        ("prices", Kind::Str) => format!(
            "`prices` is a price table, not a path: write `prices = Prices::from_file({text});`"
        ),
        ("report_dir", Kind::Str) => return None,
        ("report_dir", _) => {
            "`report_dir` is a path: write `report_dir = \"target/my-reports\";`".to_owned()
        }
        _ => return None,
    };
    Some(message)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Float,
    Str,
    Other,
}

/// The kind and text of a literal value (`30`, `1.5`, `"x"`, `true`, `-1`).
fn literal_kind(tokens: &[TokenTree]) -> Option<(Kind, String)> {
    let lit = match tokens {
        [TokenTree::Literal(l)] => l.to_string(),
        [TokenTree::Punct(m), TokenTree::Literal(l)] if m.as_char() == '-' => format!("-{l}"),
        [TokenTree::Ident(b)] if b == "true" || b == "false" => {
            return Some((Kind::Other, b.to_string()));
        }
        _ => return None,
    };
    let kind = if lit.starts_with('"') || lit.starts_with("r\"") || lit.starts_with("r#") {
        Kind::Str
    } else if lit.starts_with('\'') || lit.starts_with('b') {
        Kind::Other
    } else if lit.contains('.') || lit.contains('e') && !lit.starts_with("0x") {
        Kind::Float
    } else {
        Kind::Int
    };
    Some((kind, lit))
}
