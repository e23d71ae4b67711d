//! The syntax of `agent_test!`: a lenient parser from tokens to a small tree.
//!
//! The parser owns only the skeleton — suite settings, `scenario`, `context`, `user`,
//! `system`, `history`, `expect` — and keeps every user expression as a raw token run, emitted
//! later exactly once with its spans. It never fails: problems become diagnostics and the tree
//! holds what could be understood.

mod attrs;
mod context;
pub(crate) mod cursor;
mod scenario;
mod stmt;
mod suite;

pub(crate) use suite::parse_suite;

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

use crate::source_text::source_text;

/// The whole macro input.
pub(crate) struct SuiteAst {
    pub(crate) settings: Vec<Setting>,
    pub(crate) context: Vec<ContextEntry>,
    pub(crate) scenarios: Vec<ScenarioAst>,
    /// `files "<glob>";` entries: seed-format test files, a test per case.
    pub(crate) files: Vec<FilesAst>,
    /// Expressions of misspelt settings: still emitted, so the editor keeps helping inside them.
    pub(crate) orphans: Vec<UserExpr>,
}

/// `files "<glob>";`: the pattern, relative to the crate's directory.
pub(crate) struct FilesAst {
    pub(crate) pattern: String,
    pub(crate) span: Span,
}

/// `name = <expr>;` at suite level.
pub(crate) struct Setting {
    pub(crate) name: Ident,
    pub(crate) value: UserExpr,
}

/// `KEY: <expr>` inside `context { ... }`.
pub(crate) struct ContextEntry {
    pub(crate) key: String,
    pub(crate) key_span: Span,
    pub(crate) value: UserExpr,
}

/// `scenario name { ... }` with its attributes.
pub(crate) struct ScenarioAst {
    /// `#[doc = ...]` attributes, put on the test function.
    pub(crate) docs: Vec<TokenStream>,
    /// The doc comment's text, the scenario's description.
    pub(crate) description: String,
    /// Other attributes (`#[ignore]`, `#[should_panic]`, `#[cfg(..)]`), put on the test function.
    pub(crate) attrs: Vec<TokenStream>,
    pub(crate) name: Ident,
    pub(crate) body: Vec<Stmt>,
}

/// One statement of a scenario body or of a turn's check block.
pub(crate) enum Stmt {
    Context(Vec<ContextEntry>),
    History(UserExpr),
    System(UserExpr),
    User {
        /// `let <pattern>` when written `let <pattern> = user ...`.
        binding: Option<TokenStream>,
        input: UserExpr,
        checks: Vec<Stmt>,
    },
    /// `let <pattern> = extract <what>;` — a value a model extracts from the conversation.
    Extract {
        /// `let <pattern>` (with its type annotation, which chooses the value's type).
        binding: TokenStream,
        what: UserExpr,
    },
    /// `simulate <user> { checks }` — a model plays the user; the checks run after every turn.
    Simulate {
        user: UserExpr,
        checks: Vec<Stmt>,
    },
    /// `expect <check>;` — a turn check inside a turn's block, a conversation check elsewhere.
    Expect(UserExpr),
    /// `clock = <expr>;` and the other scenario settings.
    Setting {
        name: Ident,
        value: UserExpr,
    },
    /// Any other statement, kept verbatim.
    Rust(TokenStream),
}

/// A run of user tokens in expression position.
#[derive(Clone)]
pub(crate) struct UserExpr {
    pub(crate) tokens: TokenStream,
    /// The last token's span (the keyword's span when empty).
    pub(crate) span: Span,
}

impl UserExpr {
    pub(crate) fn new(tokens: Vec<TokenTree>, fallback: Span) -> Self {
        let span = tokens.last().map_or(fallback, TokenTree::span);
        UserExpr {
            tokens: tokens.into_iter().collect(),
            span,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The expression in braces, the brace carrying the last token's span: an incomplete
    /// expression (`tool("x").`) then cannot swallow what follows, and rustc's error points at
    /// the user's code.
    pub(crate) fn braced(&self) -> Group {
        let mut g = Group::new(Delimiter::Brace, self.tokens.clone());
        g.set_span(self.span);
        g
    }

    /// The expression as the user wrote it (normalised spacing), for report labels.
    pub(crate) fn source(&self) -> String {
        source_text(&self.tokens)
    }
}
