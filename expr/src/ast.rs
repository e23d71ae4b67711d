//! The expression tree.

use std::ops::Range;

/// A parsed expression with its byte range in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is in the source.
    pub span: Range<usize>,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A function call.
    Call {
        /// The function.
        func: Func,
        /// Its arguments.
        args: Vec<Expr>,
    },
    /// A string literal.
    Str(String),
    /// A whole number literal, exact (`-9223372036854775808`).
    Int(i128),
    /// Any other number literal (`1.5`, and whole numbers beyond `i128`).
    Num(f64),
    /// A context variable.
    Var(String),
}

/// The built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    /// `TODAY()`: the current date.
    Today,
    /// `NOW()`: the current date and time.
    Now,
    /// `DATE_ADD(date, n, unit)`.
    DateAdd,
    /// `DATE_SUB(date, n, unit)`.
    DateSub,
    /// `AT_TIME(date, time)`.
    AtTime,
    /// `FORMAT_DATE(date, format)`.
    FormatDate,
    /// `CONCAT(a, ...)`.
    Concat,
    /// `UPPER(text)`.
    Upper,
    /// `LOWER(text)`.
    Lower,
    /// `JSON_EXTRACT(data, path)`.
    JsonExtract,
}

impl Func {
    /// Every function.
    pub const ALL: [Func; 10] = [
        Func::Today,
        Func::Now,
        Func::DateAdd,
        Func::DateSub,
        Func::AtTime,
        Func::FormatDate,
        Func::Concat,
        Func::Upper,
        Func::Lower,
        Func::JsonExtract,
    ];

    /// The function's name as written.
    ///
    /// ```
    /// assert_eq!(agent_test_expr::Func::DateAdd.name(), "DATE_ADD");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Func::Today => "TODAY",
            Func::Now => "NOW",
            Func::DateAdd => "DATE_ADD",
            Func::DateSub => "DATE_SUB",
            Func::AtTime => "AT_TIME",
            Func::FormatDate => "FORMAT_DATE",
            Func::Concat => "CONCAT",
            Func::Upper => "UPPER",
            Func::Lower => "LOWER",
            Func::JsonExtract => "JSON_EXTRACT",
        }
    }

    /// The function called `name` (case-insensitive).
    ///
    /// ```
    /// use agent_test_expr::Func;
    /// assert_eq!(Func::from_name("date_add"), Some(Func::DateAdd));
    /// assert_eq!(Func::from_name("DATEADD"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Func> {
        Func::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// How many arguments it takes: (minimum, maximum).
    ///
    /// ```
    /// assert_eq!(agent_test_expr::Func::Concat.arity(), (1, usize::MAX));
    /// ```
    pub fn arity(self) -> (usize, usize) {
        match self {
            Func::Today | Func::Now => (0, 0),
            Func::DateAdd | Func::DateSub => (3, 3),
            Func::AtTime | Func::FormatDate | Func::JsonExtract => (2, 2),
            Func::Concat => (1, usize::MAX),
            Func::Upper | Func::Lower => (1, 1),
        }
    }

    /// A signature for messages.
    pub(crate) fn signature(self) -> &'static str {
        match self {
            Func::Today => "TODAY()",
            Func::Now => "NOW()",
            Func::DateAdd => "DATE_ADD(date, count, unit)",
            Func::DateSub => "DATE_SUB(date, count, unit)",
            Func::AtTime => "AT_TIME(date, time)",
            Func::FormatDate => "FORMAT_DATE(date, format)",
            Func::Concat => "CONCAT(value, ...)",
            Func::Upper => "UPPER(text)",
            Func::Lower => "LOWER(text)",
            Func::JsonExtract => "JSON_EXTRACT(data, path)",
        }
    }
}

impl Expr {
    /// The context variables the expression reads.
    ///
    /// ```
    /// let e = agent_test_expr::parse("CONCAT(A, UPPER(B), 'c')").unwrap();
    /// assert_eq!(e.variables(), ["A", "B"]);
    /// ```
    pub fn variables(&self) -> Vec<&str> {
        // With an explicit stack: a tree built by hand may be deeper than any parsed one.
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Var(v) => out.push(v.as_str()),
                ExprKind::Call { args, .. } => stack.extend(args.iter().rev()),
                ExprKind::Str(_) | ExprKind::Int(_) | ExprKind::Num(_) => {}
            }
        }
        out
    }
}
