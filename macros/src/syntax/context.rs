//! `context { KEY: <expr>, ... }`.

use proc_macro2::{Span, TokenStream, TokenTree};

use super::cursor::{Cursor, is_punct};
use super::{ContextEntry, UserExpr};
use crate::diag::Diagnostics;

/// Parses the inside of a `context { ... }` block. Keys are identifiers or string literals.
pub(crate) fn parse_context(
    stream: TokenStream,
    span: Span,
    diag: &mut Diagnostics,
) -> Vec<ContextEntry> {
    let mut c = Cursor::new(stream, span);
    let mut out: Vec<ContextEntry> = Vec::new();
    while !c.is_end() {
        if c.peek().is_some_and(|t| is_punct(t, ',')) {
            c.bump();
            continue;
        }
        let key_tok = c.bump();
        let (key, key_span) = match &key_tok {
            Some(TokenTree::Ident(i)) => (i.to_string(), i.span()),
            Some(TokenTree::Literal(l)) => {
                match syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into()) {
                    Ok(s) => (s.value(), l.span()),
                    Err(_) => {
                        diag.error(
                            l.span(),
                            "a context key is an identifier or a string literal",
                        );
                        skip_entry(&mut c);
                        continue;
                    }
                }
            }
            Some(other) => {
                diag.error(
                    other.span(),
                    "expected a context key, like `USER_ID: 12345`",
                );
                skip_entry(&mut c);
                continue;
            }
            None => break,
        };
        if !c.peek().is_some_and(|t| is_punct(t, ':')) {
            diag.error(
                c.span(),
                format!("expected `:` after the context key `{key}`"),
            );
            skip_entry(&mut c);
            continue;
        }
        c.bump();
        let mut value = Vec::new();
        while let Some(t) = c.peek() {
            if is_punct(t, ',') {
                break;
            }
            value.extend(c.bump());
        }
        if value.is_empty() {
            diag.error(
                c.span(),
                format!("expected a value for the context key `{key}`"),
            );
            continue;
        }
        if out.iter().any(|e| e.key == key) {
            diag.error(key_span, format!("duplicate context key `{key}`"));
            continue;
        }
        out.push(ContextEntry {
            key,
            key_span,
            value: UserExpr::new(value, key_span),
        });
    }
    out
}

fn skip_entry(c: &mut Cursor) {
    while let Some(t) = c.peek() {
        if is_punct(t, ',') {
            break;
        }
        c.bump();
    }
}
