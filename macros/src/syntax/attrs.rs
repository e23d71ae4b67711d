//! Outer attributes (`#[...]`, doc comments) before scenarios and statements.

use proc_macro2::{Delimiter, TokenStream, TokenTree};

use super::cursor::{Cursor, is_group, is_punct};

pub(crate) struct Attr {
    pub(crate) tokens: TokenStream,
    /// The text of a `#[doc = "..."]` attribute.
    pub(crate) doc: Option<String>,
}

/// Consumes `#[...]` attributes.
pub(crate) fn parse_outer_attrs(c: &mut Cursor) -> Vec<Attr> {
    let mut out = Vec::new();
    while c.peek().is_some_and(|t| is_punct(t, '#'))
        && c.peek_n(1).is_some_and(|t| is_group(t, Delimiter::Bracket))
    {
        let (Some(hash), Some(TokenTree::Group(g))) = (c.bump(), c.bump()) else {
            break;
        };
        let doc = doc_text(&g.stream());
        out.push(Attr {
            tokens: [hash, TokenTree::Group(g)].into_iter().collect(),
            doc,
        });
    }
    out
}

/// `doc = "text"` → `text`.
fn doc_text(inner: &TokenStream) -> Option<String> {
    let tokens: Vec<TokenTree> = inner.clone().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Ident(i), eq, TokenTree::Literal(l)] if i == "doc" && is_punct(eq, '=') => {
            syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into())
                .ok()
                .map(|s| s.value())
        }
        _ => None,
    }
}
