//! Tokens of the expression language.

use std::iter::Peekable;
use std::ops::Range;
use std::str::CharIndices;

use crate::Error;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Str(String),
    Int(i128),
    Num(f64),
    LParen,
    RParen,
    Comma,
}

pub(crate) fn lex(src: &str) -> Result<Vec<(Tok, Range<usize>)>, Error> {
    let mut out = Vec::new();
    let mut chars = src.char_indices().peekable();
    // Where the next character starts: the end of the token just read.
    let here = |chars: &mut Peekable<CharIndices<'_>>| chars.peek().map_or(src.len(), |(i, _)| *i);
    while let Some((start, c)) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {}
            '(' => out.push((Tok::LParen, start..here(&mut chars))),
            ')' => out.push((Tok::RParen, start..here(&mut chars))),
            ',' => out.push((Tok::Comma, start..here(&mut chars))),
            '\'' | '"' => {
                let mut text = String::new();
                loop {
                    let Some((_, next)) = chars.next() else {
                        return Err(Error::new("unterminated string", start..src.len()));
                    };
                    if next == c {
                        break;
                    }
                    if next == '\\' {
                        let Some((_, escaped)) = chars.next() else {
                            return Err(Error::new("unterminated string", start..src.len()));
                        };
                        text.push(escaped);
                    } else {
                        text.push(next);
                    }
                }
                out.push((Tok::Str(text), start..here(&mut chars)));
            }
            '0'..='9' | '-' | '.' => {
                while chars
                    .next_if(|(_, c)| c.is_ascii_digit() || *c == '.')
                    .is_some()
                {}
                let span = start..here(&mut chars);
                let text = src.get(span.clone()).unwrap_or_default();
                // Whole numbers stay exact (a count or an id beyond 2^53 must not change).
                if let Ok(i) = text.parse::<i128>() {
                    out.push((Tok::Int(i), span));
                    continue;
                }
                let n = text
                    .parse::<f64>()
                    .map_err(|_| Error::new(format!("invalid number `{text}`"), span.clone()))?;
                if !n.is_finite() {
                    return Err(Error::new(format!("number `{text}` is too large"), span));
                }
                out.push((Tok::Num(n), span));
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                while chars
                    .next_if(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
                    .is_some()
                {}
                let span = start..here(&mut chars);
                out.push((
                    Tok::Ident(src.get(span.clone()).unwrap_or_default().to_owned()),
                    span,
                ));
            }
            _ => {
                return Err(Error::new(
                    format!("unexpected character `{c}`"),
                    start..here(&mut chars),
                ));
            }
        }
    }
    Ok(out)
}
