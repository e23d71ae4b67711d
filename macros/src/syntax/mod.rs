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

use crate::diag::Diagnostics;
use crate::source_text::source_text;

/// How deep brackets may nest in `agent_test!`'s input (a group directly in the input is 1
/// deep). serde_json's `json!` reads no deeper either (its recursion limit is 128).
pub(crate) const MAX_NESTING: usize = 128;

/// The input with every group nested deeper than [`MAX_NESTING`] emptied, and an error at
/// the first one. Every later walk over the tokens recurses into groups, and so does rustc's
/// parser on the expansion (it dies of a stack overflow on a few thousand nested brackets):
/// cutting here keeps them all within a bounded depth.
pub(crate) fn limit_nesting(input: TokenStream, diag: &mut Diagnostics) -> TokenStream {
    match first_too_deep(&input, 1) {
        None => input,
        Some(span) => {
            diag.error(
                span,
                format!(
                    "nested deeper than {MAX_NESTING} levels of brackets: agent_test! reads no deeper"
                ),
            );
            cut(input, 1)
        }
    }
}

/// The opening bracket of the first group deeper than [`MAX_NESTING`], when the groups of
/// `stream` are `depth` deep. Recurses at most `MAX_NESTING + 1` deep.
fn first_too_deep(stream: &TokenStream, depth: usize) -> Option<Span> {
    stream.clone().into_iter().find_map(|t| match t {
        TokenTree::Group(g) if depth > MAX_NESTING => Some(g.span_open()),
        TokenTree::Group(g) => first_too_deep(&g.stream(), depth.saturating_add(1)),
        _ => None,
    })
}

/// `stream` with the groups deeper than [`MAX_NESTING`] emptied (spans kept).
fn cut(stream: TokenStream, depth: usize) -> TokenStream {
    stream
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => {
                let inner = if depth > MAX_NESTING {
                    TokenStream::new()
                } else {
                    cut(g.stream(), depth.saturating_add(1))
                };
                let mut group = Group::new(g.delimiter(), inner);
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            other => other,
        })
        .collect()
}

/// The whole macro input.
pub(crate) struct SuiteAst {
    pub(crate) settings: Vec<Setting>,
    pub(crate) context: Vec<ContextEntry>,
    pub(crate) scenarios: Vec<ScenarioAst>,
    /// `files "<glob>";` entries: seed-format test files, a test per case.
    pub(crate) files: Vec<FilesAst>,
    /// Expressions of misspelt settings: still emitted, so the editor keeps helping inside them.
    pub(crate) orphans: Vec<UserExpr>,
    /// The word starting each item at the top (`agent`, `scenario`, misspelt ones too), in
    /// order: pointed at their documented items for the editor.
    pub(crate) words: Vec<Ident>,
    /// `tools = ...;`: the agent's declared tools.
    pub(crate) tools: Option<ToolsAst>,
}

/// `tools = "tools.json";` (a file relative to the crate) or `tools = json!([...]);`.
pub(crate) struct ToolsAst {
    pub(crate) name: Ident,
    pub(crate) value: UserExpr,
    /// `tools { name: Type, .. }`: tools whose arguments are Rust types (`value` is empty).
    pub(crate) typed: Vec<TypedTool>,
}

/// `name: Type` in `tools { .. }`.
pub(crate) struct TypedTool {
    pub(crate) name: String,
    pub(crate) span: Span,
    pub(crate) ty: TokenStream,
}

/// Where a word is written: which words are valid there.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Place {
    /// A scenario's body.
    Scenario,
    /// A turn's (or a simulation's) check block.
    Turn,
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
    /// The word starting the next statement (a DSL word, or an identifier in its place),
    /// pointed at its documented item for the editor.
    Word(Ident, Place),
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
