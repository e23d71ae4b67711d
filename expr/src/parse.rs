//! Parsing: source text to an [`Expr`].

use std::ops::Range;

use crate::lex::{Tok, lex};
use crate::{Error, Expr, ExprKind, Func, MAX_DEPTH};

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
///
/// Calls nest at most [`MAX_DEPTH`] deep, so that no input can exhaust the stack of the
/// parser, the checks or the evaluator:
///
/// ```
/// let deep = format!("{}'x'{}", "UPPER(".repeat(65), ")".repeat(65));
/// assert_eq!(agent_test_expr::parse(&deep).unwrap_err().message,
///            "expression nested deeper than 64 levels at column 385");
/// ```
pub fn parse(src: &str) -> Result<Expr, Error> {
    let tokens = lex(src)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        src,
        depth: 0,
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

struct Parser<'a> {
    tokens: Vec<(Tok, Range<usize>)>,
    pos: usize,
    src: &'a str,
    /// How many calls enclose the one being parsed.
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|(t, _)| t)
    }

    /// Moves past the current token (`pos` never exceeds the number of tokens).
    fn advance(&mut self) {
        self.pos = self.pos.saturating_add(1);
    }

    fn end(&self) -> Range<usize> {
        self.src.len()..self.src.len()
    }

    fn expr(&mut self) -> Result<Expr, Error> {
        let Some((tok, span)) = self.tokens.get(self.pos).cloned() else {
            return Err(Error::new(
                "unexpected end of expression: expected an argument",
                self.end(),
            ));
        };
        self.advance();
        match tok {
            Tok::Str(s) => Ok(Expr {
                kind: ExprKind::Str(s),
                span,
            }),
            Tok::Int(i) => Ok(Expr {
                kind: ExprKind::Int(i),
                span,
            }),
            Tok::Num(n) => Ok(Expr {
                kind: ExprKind::Num(n),
                span,
            }),
            Tok::Ident(name) => {
                if self.peek() == Some(&Tok::LParen) {
                    self.advance();
                    self.depth = self.depth.saturating_add(1);
                    let call = self.call(&name, span);
                    self.depth = self.depth.saturating_sub(1);
                    call
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
        if self.depth > MAX_DEPTH {
            return Err(too_deep(self.src, name_span));
        }
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
            let end = self
                .tokens
                .get(self.pos)
                .map_or(self.src.len(), |(_, s)| s.end);
            self.advance();
            return Ok(Expr {
                kind: ExprKind::Call { func, args },
                span: name_span.start..end,
            });
        }
        loop {
            args.push(self.expr()?);
            match self.tokens.get(self.pos).cloned() {
                Some((Tok::Comma, _)) => self.advance(),
                Some((Tok::RParen, s)) => {
                    self.advance();
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

/// The error for a call nested deeper than [`MAX_DEPTH`], at the call's name.
pub(crate) fn too_deep(src: &str, span: Range<usize>) -> Error {
    let column = src
        .get(..span.start)
        .map_or(0, |before| before.chars().count())
        .saturating_add(1);
    Error::new(
        format!("expression nested deeper than {MAX_DEPTH} levels at column {column}"),
        span,
    )
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
