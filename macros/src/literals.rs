//! Number literals as the user wrote them in a setting or a call: their value and span.

use proc_macro2::{Span, TokenTree};

/// An integer literal (`5`, `5usize`, `1_000`) and its span.
pub(crate) fn int_literal(tokens: &[TokenTree]) -> Option<(u128, Span)> {
    let [TokenTree::Literal(l)] = tokens else {
        return None;
    };
    let lit = syn::parse2::<syn::LitInt>(TokenTree::Literal(l.clone()).into()).ok()?;
    Some((lit.base10_parse().ok()?, l.span()))
}

/// A number literal, possibly negative (`0.9`, `-1.0`, `1e-3`, `0.5_f64`): its value and span.
pub(crate) fn number_literal(tokens: &[TokenTree]) -> Option<(f64, Span)> {
    let (negative, lit) = match tokens {
        [TokenTree::Literal(l)] => (false, l),
        [TokenTree::Punct(p), TokenTree::Literal(l)] if p.as_char() == '-' => (true, l),
        _ => return None,
    };
    let text = lit.to_string().replace('_', "");
    let text = text.trim_end_matches("f64").trim_end_matches("f32");
    if text.starts_with('"') || text.starts_with('\'') || text.starts_with('b') {
        return None;
    }
    let value = text.parse::<f64>().ok()?;
    Some((if negative { -value } else { value }, lit.span()))
}
