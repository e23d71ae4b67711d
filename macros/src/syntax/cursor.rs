//! A cursor over token trees, for a parser that never gives up.
//!
//! The DSL is parsed leniently from raw token trees (not with `syn::parse`) so that
//! incomplete input — what an editor sends while the user types — still yields a full
//! expansion plus errors.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};

pub(crate) struct Cursor {
    tokens: Vec<TokenTree>,
    pos: usize,
    /// Span of the whole group being parsed (for errors at its end).
    end_span: Span,
}

impl Cursor {
    pub(crate) fn new(stream: TokenStream, end_span: Span) -> Self {
        Cursor {
            tokens: stream.into_iter().collect(),
            pos: 0,
            end_span,
        }
    }

    pub(crate) fn peek(&self) -> Option<&TokenTree> {
        self.tokens.get(self.pos)
    }

    pub(crate) fn peek_n(&self, n: usize) -> Option<&TokenTree> {
        self.tokens.get(self.pos + n)
    }

    pub(crate) fn bump(&mut self) -> Option<TokenTree> {
        let t = self.tokens.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn is_end(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    /// Span of the next token, else of the previous one, else of the enclosing group.
    pub(crate) fn span(&self) -> Span {
        self.peek()
            .map(TokenTree::span)
            .or_else(|| {
                self.pos
                    .checked_sub(1)
                    .and_then(|p| self.tokens.get(p))
                    .map(TokenTree::span)
            })
            .unwrap_or(self.end_span)
    }

    /// Consumes a `;` if one is next.
    pub(crate) fn eat_semi(&mut self) -> bool {
        if self.peek().is_some_and(|t| is_punct(t, ';')) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
}

pub(crate) fn is_punct(t: &TokenTree, ch: char) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == ch)
}

/// A `=` that is an assignment, not part of `==`, `=>`, `<=`, `+=`, ...
pub(crate) fn is_lone_eq(
    prev: Option<&TokenTree>,
    t: &TokenTree,
    next: Option<&TokenTree>,
) -> bool {
    let TokenTree::Punct(p) = t else { return false };
    if p.as_char() != '=' || p.spacing() == Spacing::Joint {
        return false;
    }
    let joined_before = matches!(prev, Some(TokenTree::Punct(q)) if q.spacing() == Spacing::Joint);
    let eq_after = next.is_some_and(|n| is_punct(n, '='));
    !joined_before && !eq_after
}

pub(crate) fn ident_str(t: &TokenTree) -> Option<String> {
    match t {
        TokenTree::Ident(i) => Some(i.to_string()),
        _ => None,
    }
}

pub(crate) fn is_ident(t: &TokenTree, word: &str) -> bool {
    matches!(t, TokenTree::Ident(i) if i == word)
}

pub(crate) fn is_group(t: &TokenTree, delimiter: Delimiter) -> bool {
    matches!(t, TokenTree::Group(g) if g.delimiter() == delimiter)
}
