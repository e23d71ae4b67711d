//! Scenario bodies and turn check blocks.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

use super::attrs::parse_outer_attrs;
use super::context::parse_context;
use super::cursor::{Cursor, ident_str, is_group, is_ident, is_lone_eq, is_punct};
use super::stmt::{Ended, collect_expr, collect_rust_stmt, looks_like_unknown_word, starts_dsl};
use super::{Stmt, UserExpr};
use crate::diag::Diagnostics;
use crate::keywords::{SCENARIO_SETTINGS, SCENARIO_WORDS, suggestion};

/// Where statements are being parsed: they allow different DSL words.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block {
    Scenario,
    /// The `{ ... }` after `user "..."`: checks on that turn.
    Turn,
}

pub(crate) fn parse_body(
    stream: TokenStream,
    span: Span,
    block: Block,
    diag: &mut Diagnostics,
) -> Vec<Stmt> {
    let mut c = Cursor::new(stream, span);
    let mut out = Vec::new();
    while !c.is_end() {
        if c.eat_semi() {
            continue;
        }
        let attrs = parse_outer_attrs(&mut c);
        let Some(first) = c.peek().cloned() else {
            for a in attrs {
                diag.error(
                    span_of(&a.tokens),
                    "expected a statement after this attribute",
                );
            }
            break;
        };
        let word = ident_str(&first).unwrap_or_default();
        let next = c.peek_n(1).cloned();
        if SCENARIO_WORDS.contains(&word.as_str()) && starts_dsl(&word, next.as_ref()) {
            if let Some(a) = attrs.first() {
                diag.error(
                    span_of(&a.tokens),
                    format!("attributes are not supported on `{word}`"),
                );
            }
            c.bump();
            parse_dsl(&mut c, &word, first.span(), None, block, diag, &mut out);
        } else if block == Block::Scenario
            && SCENARIO_SETTINGS.contains(&word.as_str())
            && c.peek_n(1)
                .is_some_and(|t| is_lone_eq(Some(&first), t, c.peek_n(2)))
        {
            c.bump();
            c.bump();
            let (tokens, ended) = collect_expr(&mut c, false);
            report_missing_semi(ended, &c, diag);
            let value = UserExpr::new(tokens, first.span());
            if value.is_empty() {
                diag.error(first.span(), format!("expected a value after `{word} =`"));
            } else if let TokenTree::Ident(name) = first {
                out.push(Stmt::Setting { name, value });
            }
        } else if word == "let"
            && let Some((pattern, keyword, span)) = dsl_let(&mut c)
        {
            parse_dsl(&mut c, keyword, span, Some(pattern), block, diag, &mut out);
        } else if looks_like_unknown_word(&word, next.as_ref()) {
            c.bump();
            let allowed: &[&str] = if block == Block::Turn {
                &["expect"]
            } else {
                SCENARIO_WORDS
            };
            diag.error(
                first.span(),
                format!("unknown statement `{word}`{}", suggestion(&word, allowed)),
            );
            // Keep the rest as an expression so type checking and completion still work in it.
            let (rest, _) = collect_expr(&mut c, false);
            let rest = UserExpr::new(rest, first.span());
            let braced = rest.braced();
            out.push(Stmt::Rust(quote::quote! { let _ = #braced; }));
        } else {
            let mut tokens: TokenStream = attrs.into_iter().flat_map(|a| a.tokens).collect();
            let stmt = collect_rust_stmt(&mut c);
            let semi = super::stmt::needs_semi(&stmt);
            tokens.extend(stmt);
            if semi {
                tokens.extend(quote::quote! { ; });
            }
            out.push(Stmt::Rust(tokens));
        }
    }
    out
}

fn parse_dsl(
    c: &mut Cursor,
    word: &str,
    word_span: Span,
    binding: Option<TokenStream>,
    block: Block,
    diag: &mut Diagnostics,
    out: &mut Vec<Stmt>,
) {
    if block == Block::Turn && word != "expect" {
        diag.error(
            word_span,
            format!("`{word}` cannot be used inside a turn's check block; only `expect` checks (and Rust statements) can"),
        );
    }
    match word {
        "context" => match c.peek() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                let g = g.clone();
                c.bump();
                if block == Block::Scenario {
                    out.push(Stmt::Context(parse_context(g.stream(), g.span(), diag)));
                }
            }
            _ => {
                diag.error(
                    c.span(),
                    "expected `{` after `context`, like `context { USER_ID: 12345 }`",
                );
                collect_expr(c, false);
            }
        },
        "extract" => {
            let (tokens, ended) = collect_expr(c, false);
            report_missing_semi(ended, c, diag);
            let what = UserExpr::new(tokens, word_span);
            match binding {
                _ if what.is_empty() => diag.error(
                    word_span,
                    "expected what to extract after `extract`, like `let order: String = extract \"the order number\";`",
                ),
                None => diag.error(
                    word_span,
                    "bind the extracted value: `let order: String = extract \"the order number\";` (the type says what to extract)",
                ),
                Some(binding) if block == Block::Scenario => {
                    out.push(Stmt::Extract { binding, what });
                }
                Some(_) => {}
            }
        }
        "user" | "simulate" => {
            // `simulate { ... }` with the simulated user missing: the block is the checks.
            let (tokens, ended) = if c.peek().is_some_and(|t| is_group(t, Delimiter::Brace)) {
                (Vec::new(), Ended::Brace)
            } else {
                collect_expr(c, true)
            };
            report_missing_semi(ended, c, diag);
            let input = UserExpr::new(tokens, word_span);
            if input.is_empty() && word == "user" {
                diag.error(word_span, "expected the user's message after `user`, like `user \"I was charged twice\";`");
            } else if input.is_empty() {
                diag.error(word_span, "expected the simulated user after `simulate`, like `simulate simulated_user(\"get a refund\").turns(2..=5) { expect ...; }`");
            }
            let checks = if ended == Ended::Brace {
                match c.bump() {
                    Some(TokenTree::Group(g)) => {
                        parse_body(g.stream(), g.span(), Block::Turn, diag)
                    }
                    _ => Vec::new(),
                }
            } else {
                Vec::new()
            };
            c.eat_semi();
            if block == Block::Scenario && word == "simulate" {
                out.push(Stmt::Simulate {
                    user: input,
                    checks,
                });
            } else if block == Block::Scenario {
                out.push(Stmt::User {
                    binding,
                    input,
                    checks,
                });
            }
        }
        _ => {
            let (tokens, ended) = collect_expr(c, false);
            report_missing_semi(ended, c, diag);
            let expr = UserExpr::new(tokens, word_span);
            if expr.is_empty() {
                let example = match word {
                    "expect" => "`expect tool(\"search\");`",
                    "system" => "`system \"Answer in French.\";`",
                    _ => "`history [Message::user(\"hi\"), Message::assistant(\"hello\")];`",
                };
                diag.error(
                    word_span,
                    format!("expected an expression after `{word}`, like {example}"),
                );
                return;
            }
            match (word, block) {
                ("expect", _) => out.push(Stmt::Expect(expr)),
                ("system", Block::Scenario) => out.push(Stmt::System(expr)),
                ("history", Block::Scenario) => out.push(Stmt::History(expr)),
                _ => {}
            }
        }
    }
}

fn report_missing_semi(ended: Ended, c: &Cursor, diag: &mut Diagnostics) {
    if ended == Ended::MissingSemi {
        diag.error(c.span(), "expected `;` before this statement");
    }
}

/// `let <pattern> = user ...` or `let <pattern> = extract ...`: consumes through the keyword
/// and returns the pattern tokens (with `let`), the keyword and its span. Leaves the cursor
/// untouched when the `let` is plain Rust.
fn dsl_let(c: &mut Cursor) -> Option<(TokenStream, &'static str, Span)> {
    let mut i = 1;
    loop {
        let t = c.peek_n(i)?;
        if is_punct(t, ';') || is_group(t, Delimiter::Brace) && i == 1 {
            return None;
        }
        if is_lone_eq(c.peek_n(i - 1), t, c.peek_n(i + 1)) {
            break;
        }
        i += 1;
    }
    let word = c.peek_n(i + 1)?;
    let keyword = ["user", "extract"]
        .into_iter()
        .find(|k| is_ident(word, k) && starts_dsl(k, c.peek_n(i + 2)))?;
    let span = word.span();
    let mut pattern = TokenStream::new();
    for _ in 0..i {
        pattern.extend(c.bump());
    }
    c.bump(); // `=`
    c.bump(); // the keyword
    Some((pattern, keyword, span))
}

fn span_of(tokens: &TokenStream) -> Span {
    tokens
        .clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |t| t.span())
}
