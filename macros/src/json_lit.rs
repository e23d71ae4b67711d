//! `json!({...})` tokens back to JSON, when they are all literals, so schema literals can be
//! checked at compile time.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use serde_json::{Map, Number, Value};

use crate::syntax::MAX_NESTING;
use crate::syntax::cursor::is_punct;

/// The JSON a `json!` body denotes, or `None` when it holds anything but literals (variables,
/// expressions), which only the runtime can evaluate, or nests deeper than [`MAX_NESTING`]
/// (which the macro reports on its own).
pub(crate) fn literal_json(tokens: &TokenStream) -> Option<Value> {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let (value, rest) = value(&tokens, 0)?;
    rest.is_empty().then_some(value)
}

/// `depth`: how many arrays and objects enclose the value.
fn value(tokens: &[TokenTree], depth: usize) -> Option<(Value, &[TokenTree])> {
    let (first, rest) = tokens.split_first()?;
    let inner = depth.saturating_add(1);
    match first {
        TokenTree::Group(_) if inner > MAX_NESTING => None,
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
            Some((object(&g.stream(), inner)?, rest))
        }
        TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => {
            Some((array(&g.stream(), inner)?, rest))
        }
        TokenTree::Ident(i) => {
            let v = match i.to_string().as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                "null" => Value::Null,
                _ => return None,
            };
            Some((v, rest))
        }
        TokenTree::Punct(p) if p.as_char() == '-' => {
            let (TokenTree::Literal(l), rest) = rest.split_first()? else {
                return None;
            };
            Some((number(&format!("-{l}"))?, rest))
        }
        TokenTree::Literal(l) => {
            let text = l.to_string();
            let v = match syn::parse2::<syn::Lit>(TokenTree::Literal(l.clone()).into()).ok()? {
                syn::Lit::Str(s) => Value::String(s.value()),
                syn::Lit::Int(_) | syn::Lit::Float(_) => number(&text)?,
                _ => return None,
            };
            Some((v, rest))
        }
        _ => None,
    }
}

fn number(text: &str) -> Option<Value> {
    let clean: String = text.chars().filter(|c| *c != '_').collect();
    if let Ok(i) = clean.parse::<i64>() {
        return Some(Value::Number(i.into()));
    }
    clean
        .parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map(Value::Number)
}

fn array(stream: &TokenStream, depth: usize) -> Option<Value> {
    let tokens: Vec<TokenTree> = stream.clone().into_iter().collect();
    let mut rest = tokens.as_slice();
    let mut out = Vec::new();
    while !rest.is_empty() {
        let (v, after) = value(rest, depth)?;
        out.push(v);
        rest = skip_comma(after)?;
    }
    Some(Value::Array(out))
}

fn object(stream: &TokenStream, depth: usize) -> Option<Value> {
    let tokens: Vec<TokenTree> = stream.clone().into_iter().collect();
    let mut rest = tokens.as_slice();
    let mut out = Map::new();
    while let Some((TokenTree::Literal(key), after)) = rest.split_first() {
        let syn::Lit::Str(key) =
            syn::parse2::<syn::Lit>(TokenTree::Literal(key.clone()).into()).ok()?
        else {
            return None;
        };
        let (colon, after) = after.split_first()?;
        if !is_punct(colon, ':') {
            return None;
        }
        let (v, after) = value(after, depth)?;
        out.insert(key.value(), v);
        rest = skip_comma(after)?;
    }
    rest.is_empty().then_some(Value::Object(out))
}

/// After an element: nothing, or a comma (then more, or nothing).
fn skip_comma(rest: &[TokenTree]) -> Option<&[TokenTree]> {
    match rest.split_first() {
        None => Some(rest),
        Some((t, after)) if is_punct(t, ',') => Some(after),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn lit(src: &str) -> Option<Value> {
        literal_json(&TokenStream::from_str(src).unwrap_or_default())
    }

    #[test]
    fn literals_round_trip() {
        assert_eq!(
            lit(
                r#"{"type": "object", "required": ["id"], "properties": {"n": {"minimum": -1.5, "max": 10}}, "x": null, "y": true}"#
            ),
            Some(
                serde_json::json!({"type": "object", "required": ["id"], "properties": {"n": {"minimum": -1.5, "max": 10}}, "x": null, "y": true})
            )
        );
        assert_eq!(lit("[1, 2,]"), Some(serde_json::json!([1, 2])));
        assert_eq!(lit(r#"{"a": some_var}"#), None);
        assert_eq!(lit(r#"{"a": 1 + 2}"#), None);
    }

    #[test]
    fn nesting_is_limited() {
        let nested = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        assert!(lit(&nested(MAX_NESTING)).is_some());
        assert_eq!(lit(&nested(MAX_NESTING + 1)), None);
    }
}
