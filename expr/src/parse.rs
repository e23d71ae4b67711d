//! Parsing: source text to an [`Expr`].

use std::ops::Range;

use crate::lex::{Tok, lex};
use crate::{Error, Expr, ExprKind, Func};

/// Parses an expression. Unknown function names are reported here (with "did you mean");
/// arity, units, times and variables are checked by [`validate`](crate::validate).
///
/// ```
/// use agent_test_expr::{parse, ExprKind};
/// assert!(matches!(parse("TODAY").unwrap().kind, ExprKind::Call { .. }));
/// assert_eq!(parse("USER_ID").unwrap().kind, ExprKind::Var("USER_ID".into()));
/// assert_eq!(parse("DATEADD(TODAY(), 1, 'day')").unwrap_err().message,
///            "unknown function `DATEADD`; did you mean `DATE_ADD`?");
/// ```
pub fn parse(src: &str) -> Result<Expr, Error> {
    let tokens = lex(src)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        len: src.len(),
    };
    if p.tokens.is_empty() {
        return Err(Error::new("empty expression", 0..src.len()));
    }
    let e = p.expr()?;
    if let Some((_, span)) = p.tokens.get(p.pos) {
        return Err(Error::new(
            "unexpected text after the expression",
            span.start..src.len(),
        ));
    }
    Ok(e)
}

struct Parser {
    tokens: Vec<(Tok, Range<usize>)>,
    pos: usize,
    len: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|(t, _)| t)
    }

    fn end(&self) -> Range<usize> {
        self.len..self.len
    }

    fn expr(&mut self) -> Result<Expr, Error> {
        let Some((tok, span)) = self.tokens.get(self.pos).cloned() else {
            return Err(Error::new(
                "unexpected end of expression: expected an argument",
                self.end(),
            ));
        };
        self.pos += 1;
        match tok {
            Tok::Str(s) => Ok(Expr {
                kind: ExprKind::Str(s),
                span,
            }),
            Tok::Num(n) => Ok(Expr {
                kind: ExprKind::Num(n),
                span,
            }),
            Tok::Ident(name) => {
                if self.peek() == Some(&Tok::LParen) {
                    self.pos += 1;
                    self.call(&name, span)
                } else if name == "TODAY" || name == "NOW" {
                    // Written with and without parentheses in the wild; accept both.
                    let func = if name == "TODAY" {
                        Func::Today
                    } else {
                        Func::Now
                    };
                    Ok(Expr {
                        kind: ExprKind::Call { func, args: vec![] },
                        span,
                    })
                } else {
                    Ok(Expr {
                        kind: ExprKind::Var(name),
                        span,
                    })
                }
            }
            Tok::LParen | Tok::RParen | Tok::Comma => Err(Error::new(
                "expected a value, a function call or a variable",
                span,
            )),
        }
    }

    fn call(&mut self, name: &str, name_span: Range<usize>) -> Result<Expr, Error> {
        let func = Func::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Func::ALL.iter().map(|f| f.name()).collect();
            let hint = closest(&name.to_ascii_uppercase(), &names)
                .map_or(String::new(), |n| format!("; did you mean `{n}`?"));
            Error::new(
                format!("unknown function `{name}`{hint}"),
                name_span.clone(),
            )
        })?;
        let mut args = Vec::new();
        if self.peek() == Some(&Tok::RParen) {
            let end = self.tokens.get(self.pos).map_or(self.len, |(_, s)| s.end);
            self.pos += 1;
            return Ok(Expr {
                kind: ExprKind::Call { func, args },
                span: name_span.start..end,
            });
        }
        loop {
            args.push(self.expr()?);
            match self.tokens.get(self.pos).cloned() {
                Some((Tok::Comma, _)) => self.pos += 1,
                Some((Tok::RParen, s)) => {
                    self.pos += 1;
                    return Ok(Expr {
                        kind: ExprKind::Call { func, args },
                        span: name_span.start..s.end,
                    });
                }
                Some((_, s)) => {
                    return Err(Error::new(
                        format!("expected `,` or `)` in {}", func.name()),
                        s,
                    ));
                }
                None => {
                    return Err(Error::new(
                        format!("unclosed `(` of {}", func.name()),
                        self.end(),
                    ));
                }
            }
        }
    }
}

/// The candidate closest to `word`, when close enough to be a typo.
pub(crate) fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), *c))
        .filter(|(d, c)| *d <= (c.len() / 3).max(1) || (word.len() >= 3 && c.starts_with(word)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}
