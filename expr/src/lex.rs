//! Tokens of the expression language.

use std::ops::Range;

use crate::Error;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Str(String),
    Num(f64),
    LParen,
    RParen,
    Comma,
}

pub(crate) fn lex(src: &str) -> Result<Vec<(Tok, Range<usize>)>, Error> {
    let mut out = Vec::new();
    let bytes = src.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let start = i;
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'(' => {
                out.push((Tok::LParen, i..i + 1));
                i += 1;
            }
            b')' => {
                out.push((Tok::RParen, i..i + 1));
                i += 1;
            }
            b',' => {
                out.push((Tok::Comma, i..i + 1));
                i += 1;
            }
            b'\'' | b'"' => {
                let quote = b;
                i += 1;
                let mut text = String::new();
                loop {
                    let Some(c) = src.get(i..).and_then(|r| r.chars().next()) else {
                        return Err(Error::new("unterminated string", start..src.len()));
                    };
                    i += c.len_utf8();
                    if c as u32 == u32::from(quote) {
                        break;
                    }
                    if c == '\\' {
                        let Some(n) = src.get(i..).and_then(|r| r.chars().next()) else {
                            return Err(Error::new("unterminated string", start..src.len()));
                        };
                        i += n.len_utf8();
                        text.push(n);
                    } else {
                        text.push(c);
                    }
                }
                out.push((Tok::Str(text), start..i));
            }
            b'0'..=b'9' | b'-' | b'.' => {
                i += 1;
                while bytes
                    .get(i)
                    .is_some_and(|c| c.is_ascii_digit() || *c == b'.')
                {
                    i += 1;
                }
                let text = src.get(start..i).unwrap_or_default();
                let n = text
                    .parse::<f64>()
                    .map_err(|_| Error::new(format!("invalid number `{text}`"), start..i))?;
                out.push((Tok::Num(n), start..i));
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while bytes
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    i += 1;
                }
                out.push((
                    Tok::Ident(src.get(start..i).unwrap_or_default().to_owned()),
                    start..i,
                ));
            }
            _ => {
                let c = src.get(i..).and_then(|r| r.chars().next()).unwrap_or('?');
                return Err(Error::new(
                    format!("unexpected character `{c}`"),
                    i..i + c.len_utf8(),
                ));
            }
        }
    }
    Ok(out)
}
