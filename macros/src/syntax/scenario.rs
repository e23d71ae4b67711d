//! Scenario bodies and turn check blocks.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

use super::attrs::{Attr, parse_outer_attrs};
use super::context::parse_context;
use super::cursor::{Cursor, ident_str, is_group, is_ident, is_lone_eq, is_punct};
use super::stmt::{Ended, collect_expr, collect_rust_stmt, looks_like_unknown_word, starts_dsl};
use super::{Stmt, UserExpr};
use crate::diag::Diagnostics;
use crate::keywords::{SCENARIO_SETTINGS, SCENARIO_WORDS, SETTINGS, did_you_mean, suggestion};

/// Where statements are being parsed: they allow different DSL words.
pub(crate) use super::Place as Block;

pub(crate) fn parse_body(
    stream: TokenStream,
    span: Span,
    block: Block,
    diag: &mut Diagnostics,
) -> Vec<Stmt> {
    let mut c = Cursor::new(stream, span);
    let mut body = Body {
        block,
        diag,
        out: Vec::new(),
        rust_idents: Vec::new(),
        settings: Vec::new(),
    };
    while !c.is_end() {
        if c.eat_semi() {
            continue;
        }
        let attrs = parse_outer_attrs(&mut c);
        let Some(first) = c.peek().cloned() else {
            for a in attrs {
                body.diag.error(
                    span_of(&a.tokens),
                    "expected a statement after this attribute",
                );
            }
            break;
        };
        body.statement(&mut c, &first, attrs);
    }
    body.out
}

/// What parsing a body keeps from one statement to the next.
struct Body<'d> {
    block: Block,
    diag: &'d mut Diagnostics,
    out: Vec<Stmt>,
    /// Identifiers of the Rust statements so far: `x = ..;` naming one of them is Rust, not a
    /// misspelt setting.
    rust_idents: Vec<String>,
    /// Settings this scenario gave, to report one given twice.
    settings: Vec<String>,
}

impl Body<'_> {
    /// One statement starting at `first` (its attributes already read): decides what kind of
    /// statement it is, in an order that matters (a DSL word before a setting, a setting before
    /// Rust), and parses it.
    fn statement(&mut self, c: &mut Cursor, first: &TokenTree, attrs: Vec<Attr>) {
        let word = ident_str(first).unwrap_or_default();
        let next = c.peek_n(1).cloned();
        let assigns = c
            .peek_n(1)
            .is_some_and(|t| is_lone_eq(Some(first), t, c.peek_n(2)));
        if SCENARIO_WORDS.contains(&word.as_str()) && starts_dsl(&word, next.as_ref()) {
            if let Some(a) = attrs.first() {
                self.diag.error(
                    span_of(&a.tokens),
                    format!("attributes are not supported on `{word}`"),
                );
            }
            push_word(first, self.block, &mut self.out);
            c.bump();
            parse_dsl(
                c,
                &word,
                first.span(),
                None,
                self.block,
                self.diag,
                &mut self.out,
            );
        } else if assigns
            && !self.rust_idents.contains(&word)
            && let TokenTree::Ident(name) = first
            && (SETTINGS.contains(&word.as_str()) || did_you_mean(&word, SETTINGS).is_some())
        {
            self.setting(c, first, name, word);
        } else if word == "let"
            && let Some((pattern, keyword, span)) = dsl_let(c)
        {
            self.rust_idents
                .extend(pattern.clone().into_iter().filter_map(|t| ident_str(&t)));
            self.out.push(Stmt::Word(
                proc_macro2::Ident::new(keyword, span),
                self.block,
            ));
            parse_dsl(
                c,
                keyword,
                span,
                Some(pattern),
                self.block,
                self.diag,
                &mut self.out,
            );
        } else if looks_like_unknown_word(&word, next.as_ref()) {
            self.unknown_word(c, first, &word);
        } else if matches!(first, TokenTree::Ident(_))
            && !crate::keywords::is_rust_word(&word)
            && !SCENARIO_WORDS.contains(&word.as_str())
            && !self.rust_idents.contains(&word)
            && next.as_ref().is_none_or(|t| is_punct(t, ';'))
        {
            // A lone identifier that names nothing of the scenario is a word being typed (the
            // editor offers the words, also with nothing typed yet at the end of a body) or a
            // misspelt one: said as such, not as Rust's "cannot find value".
            push_word(first, self.block, &mut self.out);
            c.bump();
            self.report_unknown_statement(first, &word);
        } else {
            self.rust_stmt(c, attrs);
        }
    }

    /// `name = value;` where `name` is a setting or close to one: kept as a setting when it
    /// is a scenario's, set once and given a value; otherwise reported.
    fn setting(
        &mut self,
        c: &mut Cursor,
        first: &TokenTree,
        name: &proc_macro2::Ident,
        word: String,
    ) {
        push_word(first, self.block, &mut self.out);
        c.bump();
        c.bump();
        let (tokens, ended) = collect_expr(c, false);
        report_missing_semi(ended, &tokens, self.diag);
        let value = UserExpr::new(tokens, first.span());
        let known = SCENARIO_SETTINGS.contains(&word.as_str());
        if self.block == Block::Turn {
            self.diag.error(
                name.span(),
                format!("`{word}` cannot be set inside a turn's check block; set it in the scenario's body"),
            );
        } else if SETTINGS.contains(&word.as_str()) && !known {
            self.diag.error(
                name.span(),
                format!("`{word}` is a suite setting: set it at the top of `agent_test!`, for every scenario"),
            );
        } else if !known {
            self.diag.error(
                name.span(),
                format!(
                    "unknown setting `{word}`{} (a scenario's settings: {})",
                    suggestion(&word, SCENARIO_SETTINGS),
                    list(SCENARIO_SETTINGS)
                ),
            );
        } else if value.is_empty() {
            self.diag
                .error(name.span(), format!("expected a value after `{word} =`"));
        } else if self.settings.contains(&word) {
            self.diag.error(
                name.span(),
                format!("`{word}` is set twice in this scenario"),
            );
        } else {
            self.settings.push(word);
            self.out.push(Stmt::Setting {
                name: name.clone(),
                value,
            });
            return;
        }
        // Still emitted, so the editor keeps helping inside the value.
        if !value.is_empty() {
            let braced = value.braced();
            self.out
                .push(Stmt::Rust(quote::quote! { let _ = #braced; }));
        }
    }

    /// A word that looks like a misspelt DSL word starting a statement: reported, and the rest
    /// of the statement kept as an expression.
    fn unknown_word(&mut self, c: &mut Cursor, first: &TokenTree, word: &str) {
        push_word(first, self.block, &mut self.out);
        c.bump();
        self.report_unknown_statement(first, word);
        // A DSL word on the next line: this one stands alone (typed, not finished).
        if c.peek().is_some_and(|t| {
            ident_str(t).is_some_and(|w| {
                SCENARIO_WORDS.contains(&w.as_str()) && starts_dsl(&w, c.peek_n(1))
            })
        }) {
            return;
        }
        // Keep the rest as an expression so type checking and completion still work in it.
        let (rest, _) = collect_expr(c, false);
        let rest = UserExpr::new(rest, first.span());
        let braced = rest.braced();
        self.out
            .push(Stmt::Rust(quote::quote! { let _ = #braced; }));
    }

    /// "unknown statement", suggesting the words allowed where it stands.
    fn report_unknown_statement(&mut self, first: &TokenTree, word: &str) {
        let allowed: &[&str] = if self.block == Block::Turn {
            &["expect"]
        } else {
            SCENARIO_WORDS
        };
        self.diag.error(
            first.span(),
            format!("unknown statement `{word}`{}", suggestion(word, allowed)),
        );
    }

    /// A Rust statement, with its attributes, passed through as written.
    fn rust_stmt(&mut self, c: &mut Cursor, attrs: Vec<Attr>) {
        let mut tokens: TokenStream = attrs.into_iter().flat_map(|a| a.tokens).collect();
        let stmt = collect_rust_stmt(c);
        self.rust_idents.extend(stmt.iter().filter_map(ident_str));
        let semi = super::stmt::needs_semi(&stmt);
        tokens.extend(stmt);
        if semi {
            tokens.extend(quote::quote! { ; });
        }
        self.out.push(Stmt::Rust(tokens));
    }
}

/// The word starting a statement, for the editor.
fn push_word(first: &TokenTree, block: Block, out: &mut Vec<Stmt>) {
    if let TokenTree::Ident(i) = first {
        out.push(Stmt::Word(i.clone(), block));
    }
}

fn list(words: &[&str]) -> String {
    words
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
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
            report_missing_semi(ended, &tokens, diag);
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
            report_missing_semi(ended, &tokens, diag);
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
            report_missing_semi(ended, &tokens, diag);
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

/// A statement that runs into the next one: the error is right after its last token, where
/// the `;` belongs.
fn report_missing_semi(ended: Ended, tokens: &[TokenTree], diag: &mut Diagnostics) {
    if ended == Ended::MissingSemi
        && let Some(last) = tokens.last()
    {
        diag.error(
            last.span(),
            "expected `;` after this, before the next statement",
        );
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
