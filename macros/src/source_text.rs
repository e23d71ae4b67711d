//! Tokens back to readable source text, for the labels reports show.
//!
//! `TokenStream`'s `Display` spaces every token (`tool ("x") . arg ("a" , 1)`); reports show
//! what the user wrote, so this printer follows rustfmt's spacing for the expression shapes
//! checks are written in.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    Start,
    Word,
    Close,
    Dot,
    Joint,
    Comma,
    Op,
    Unary,
    ColonAlone,
    Bang,
}

pub(crate) fn source_text(tokens: &TokenStream) -> String {
    let mut out = String::new();
    write_stream(&mut out, tokens.clone());
    out.trim_end().to_owned()
}

fn write_stream(out: &mut String, tokens: TokenStream) {
    let mut prev = Prev::Start;
    let mut in_closure_params = false;
    for t in tokens {
        match t {
            TokenTree::Ident(_) | TokenTree::Literal(_) => {
                if matches!(prev, Prev::Word | Prev::Close | Prev::Op | Prev::ColonAlone) {
                    out.push(' ');
                }
                out.push_str(&t.to_string());
                prev = Prev::Word;
            }
            TokenTree::Punct(p) => {
                let ch = p.as_char();
                let joint = p.spacing() == Spacing::Joint;
                let binary_position = matches!(prev, Prev::Word | Prev::Close);
                prev = match ch {
                    ',' | ';' => {
                        out.push(ch);
                        out.push(' ');
                        Prev::Comma
                    }
                    '.' | '?' => {
                        out.push(ch);
                        if joint {
                            Prev::Joint
                        } else if ch == '.' {
                            Prev::Dot
                        } else {
                            Prev::Close
                        }
                    }
                    ':' => {
                        out.push(ch);
                        if joint {
                            Prev::Joint
                        } else if prev == Prev::Joint {
                            Prev::Dot
                        } else {
                            Prev::ColonAlone
                        }
                    }
                    '!' if prev == Prev::Word => {
                        out.push(ch);
                        Prev::Bang
                    }
                    '|' if in_closure_params => {
                        in_closure_params = false;
                        out.push(ch);
                        Prev::Op
                    }
                    _ if prev == Prev::Joint => {
                        out.push(ch);
                        if joint { Prev::Joint } else { Prev::Op }
                    }
                    _ if binary_position => {
                        out.push(' ');
                        out.push(ch);
                        if joint { Prev::Joint } else { Prev::Op }
                    }
                    _ => {
                        if matches!(prev, Prev::Op | Prev::ColonAlone) {
                            out.push(' ');
                        }
                        out.push(ch);
                        if ch == '|' && !joint {
                            in_closure_params = true;
                        }
                        // A lifetime's `'` is joint with its name.
                        if joint { Prev::Joint } else { Prev::Unary }
                    }
                };
            }
            TokenTree::Group(g) => {
                match g.delimiter() {
                    Delimiter::Brace => {
                        if !matches!(prev, Prev::Start | Prev::Unary | Prev::Comma) {
                            out.push(' ');
                        }
                        let mut inner = String::new();
                        write_stream(&mut inner, g.stream());
                        let inner = inner.trim_end();
                        if inner.is_empty() {
                            out.push_str("{}");
                        } else {
                            out.push_str("{ ");
                            out.push_str(inner);
                            out.push_str(" }");
                        }
                    }
                    Delimiter::Parenthesis | Delimiter::Bracket => {
                        if matches!(prev, Prev::Op | Prev::ColonAlone) {
                            out.push(' ');
                        }
                        let (open, close) = if g.delimiter() == Delimiter::Parenthesis {
                            ('(', ')')
                        } else {
                            ('[', ']')
                        };
                        out.push(open);
                        let mut inner = String::new();
                        write_stream(&mut inner, g.stream());
                        out.push_str(inner.trim_end());
                        out.push(close);
                    }
                    Delimiter::None => {
                        if matches!(prev, Prev::Word | Prev::Close | Prev::Op | Prev::ColonAlone) {
                            out.push(' ');
                        }
                        let mut inner = String::new();
                        write_stream(&mut inner, g.stream());
                        out.push_str(inner.trim_end());
                    }
                }
                prev = Prev::Close;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn show(src: &str) -> String {
        source_text(&TokenStream::from_str(src).unwrap_or_default())
    }

    #[test]
    fn common_check_shapes() {
        for src in [
            r#"tool("lookup_order").arg("order_id", "ORD-9921")"#,
            r#"reply().contains("refund").case_sensitive()"#,
            r#"tool_sequence(["a", "b"])"#,
            r#"tool("x").args(json!({ "a": 1, "b": [1, 2] }))"#,
            r#"check("short", |cx| cx.reply().len() < 20)"#,
            r#"reply().contains(&order_id)"#,
            r#"tool("x").arg("n", -1).depends_on("a")"#,
            r#"agent_test::prelude::reply()"#,
            r#"x == 1 && !y"#,
            r#"format!("{id}")"#,
            r#"vec![1, 2]"#,
            r#"match x { Some(a) => a, None => 0 }"#,
        ] {
            assert_eq!(show(src), src);
        }
    }
}
