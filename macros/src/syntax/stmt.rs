//! Finding where statements and expressions end in raw tokens.

use proc_macro2::{Delimiter, TokenTree};

use super::cursor::{Cursor, ident_str, is_group, is_ident, is_punct};
use crate::keywords::{SCENARIO_WORDS, is_rust_word};

/// Whether the DSL word `word`, followed by `next`, starts a DSL statement rather than being a
/// Rust identifier that happens to be spelt the same (`user.name`, `expect!(..)`,
/// `for user in users`).
pub(crate) fn starts_dsl(word: &str, next: Option<&TokenTree>) -> bool {
    match next {
        None => true,
        Some(TokenTree::Punct(p)) => !matches!(
            p.as_char(),
            '.' | ':' | '!' | '=' | '?' | ',' | '+' | '/' | '%' | '^' | '<' | '>' | '@'
        ),
        // `history [..]` is a list of messages; `user[0]` would be Rust indexing.
        Some(TokenTree::Group(g)) => match g.delimiter() {
            Delimiter::Bracket => word == "history",
            Delimiter::Brace => true,
            // `extract(..)` and `simulate(..)` stay calls of the user's own functions.
            _ => !matches!(word, "context" | "extract" | "simulate"),
        },
        Some(TokenTree::Ident(i)) => {
            !matches!(i.to_string().as_str(), "in" | "as" | "else" | "where")
        }
        Some(TokenTree::Literal(_)) => true,
    }
}

/// Whether the cursor, in the middle of an expression or statement, is at a DSL statement that
/// the user started without ending the previous one with `;`. Only a DSL word directly followed
/// by a literal or an identifier counts: Rust never allows that pair, so `match user { .. }`
/// or `x.expect(..)` are never split.
fn at_dsl_start(c: &Cursor) -> bool {
    c.peek().and_then(ident_str).is_some_and(|w| {
        SCENARIO_WORDS.contains(&w.as_str()) && looks_like_unknown_word("", c.peek_n(1))
    })
}

/// Whether `word` followed by `next` looks like a misspelt DSL word: an identifier directly
/// followed by a literal or another identifier, which Rust never allows.
pub(crate) fn looks_like_unknown_word(word: &str, next: Option<&TokenTree>) -> bool {
    !is_rust_word(word)
        && match next {
            Some(TokenTree::Literal(_)) => true,
            Some(TokenTree::Ident(i)) => !is_rust_word(&i.to_string()),
            _ => false,
        }
}

/// How an expression ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Ended {
    /// At a `;` (consumed).
    Semi,
    /// Before a `{ ... }` group (not consumed), when asked to stop there.
    Brace,
    /// Before the next DSL statement: the `;` is missing.
    MissingSemi,
    /// At the end of the enclosing group.
    End,
}

/// Collects an expression's tokens up to `;`, the end, a DSL statement that starts without a
/// `;` before it, or (when `stop_at_brace`) a `{ ... }` group that follows at least one token.
pub(crate) fn collect_expr(c: &mut Cursor, stop_at_brace: bool) -> (Vec<TokenTree>, Ended) {
    let mut out = Vec::new();
    loop {
        let Some(t) = c.peek() else {
            return (out, Ended::End);
        };
        if is_punct(t, ';') {
            c.bump();
            return (out, Ended::Semi);
        }
        if stop_at_brace && !out.is_empty() && is_group(t, Delimiter::Brace) {
            return (out, Ended::Brace);
        }
        if !out.is_empty() && at_dsl_start(c) {
            return (out, Ended::MissingSemi);
        }
        out.extend(c.bump());
    }
}

/// Collects one Rust statement verbatim, following Rust's rules for where statements end: at
/// `;`, or after the block of a block-like expression (`if`/`else` chains, `match`, loops), an
/// item (`fn`, `impl`, ...) or a braced macro call. Stops early before a DSL statement (the
/// user forgot a `;`).
pub(crate) fn collect_rust_stmt(c: &mut Cursor) -> Vec<TokenTree> {
    let first = c.peek().and_then(ident_str).unwrap_or_default();
    let block_like = matches!(
        first.as_str(),
        "if" | "match" | "for" | "while" | "loop" | "unsafe"
    ) || c
        .peek()
        .is_some_and(|t| is_group(t, Delimiter::Brace) || is_punct(t, '\''));
    let item_like = matches!(
        first.as_str(),
        "fn" | "impl"
            | "mod"
            | "trait"
            | "enum"
            | "struct"
            | "union"
            | "pub"
            | "const"
            | "static"
            | "use"
            | "type"
            | "extern"
            | "macro_rules"
    );
    let mut out: Vec<TokenTree> = Vec::new();
    while let Some(t) = c.peek() {
        if is_punct(t, ';') {
            out.extend(c.bump());
            break;
        }
        if !out.is_empty() && at_dsl_start(c) {
            break;
        }
        let brace = is_group(t, Delimiter::Brace);
        let ends_macro = brace && is_macro_path(&out);
        out.extend(c.bump());
        if brace && (block_like || item_like || ends_macro) {
            if block_like && c.peek().is_some_and(|n| is_ident(n, "else")) {
                continue;
            }
            c.eat_semi();
            break;
        }
    }
    out
}

/// `path::to::name !` — the start of a macro call at statement start.
fn is_macro_path(tokens: &[TokenTree]) -> bool {
    match tokens.split_last() {
        Some((bang, path)) if is_punct(bang, '!') && !path.is_empty() => path
            .iter()
            .all(|t| matches!(t, TokenTree::Ident(_)) || is_punct(t, ':')),
        _ => false,
    }
}

/// Whether emitted statement tokens need a `;` to stand alone (so an incomplete statement
/// cannot merge with generated code that follows).
pub(crate) fn needs_semi(tokens: &[TokenTree]) -> bool {
    match tokens.last() {
        None => false,
        Some(t) => !is_punct(t, ';') && !is_group(t, Delimiter::Brace),
    }
}
