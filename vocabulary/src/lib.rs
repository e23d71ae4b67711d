//! The words of agent-test's check language, shared by the `agent_test!` macro and the runtime.
//!
//! Each check kind declares itself in its own file of the runtime (`CheckRules::KIND`): its
//! `type` tag, the functions that build it, which of its functions' first arguments are text,
//! a regex, an expression, a JSONPath or JMESPath query or a JSON Schema, and one line for the
//! reference. The runtime derives from those declarations the table of [`WORDS`] this crate
//! holds (generated; a runtime test fails when it differs from the declarations), and the macro
//! reads that table to check literal arguments at compile time — so a check kind added with a
//! regex argument is checked at compile time without a hand-kept list to forget.
//!
//! ```
//! use agent_test_vocabulary::{Arg, Vocabulary};
//! let words = Vocabulary::STANDARD;
//! assert!(words.takes("matches", Arg::Regex));
//! assert!(words.takes("json_path", Arg::JsonPath));
//! assert!(words.takes_text("tool"));
//! assert!(!words.takes_text("arg"));
//! ```

mod words;

pub use words::{OPTIONS, WORDS};

/// What a function's first argument is, for the macro to check a literal given there.
///
/// ```
/// use agent_test_vocabulary::Arg;
/// assert!(Arg::Regex.is_text());
/// assert!(!Arg::Schema.is_text());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arg {
    /// Text: a string literal (`contains("x")`, `judge("polite")`); a number or a bare word
    /// there is a compile error suggesting the quoted form.
    Text,
    /// A regex, compiled at compile time with the parser the runtime's `regex` uses.
    Regex,
    /// An expression of the expression language (`TODAY()`, `DATE_ADD(..)`).
    Expression,
    /// A JSONPath query (RFC 9535).
    JsonPath,
    /// A JMESPath expression.
    JmesPath,
    /// A JSON Schema, usually a `json!({..})` literal, checked against its meta-schema.
    Schema,
    /// A tool's name: checked against the suite's declared tools.
    Tool,
    /// A list of tool names: each checked against the declared tools.
    ToolList,
    /// An option naming a tool (`.args_mode_for("x", ..)`): checked against the declared tools.
    ToolOption,
    /// An expected value (data or a matcher): its `json!` literals are checked for matcher
    /// words and duplicate keys.
    Value,
    /// Arguments holding closures: Rust code, not scanned for checks.
    Closure,
}

impl Arg {
    /// Whether the argument is written as a string literal.
    ///
    /// See the type's example.
    pub const fn is_text(self) -> bool {
        matches!(
            self,
            Arg::Text
                | Arg::Regex
                | Arg::Expression
                | Arg::JsonPath
                | Arg::JmesPath
                | Arg::Tool
                | Arg::ToolOption
        )
    }
}

/// A function or method of the check language and what its first argument is.
///
/// ```
/// use agent_test_vocabulary::{Arg, Word};
/// const W: Word = Word::new("matches", Arg::Regex);
/// assert_eq!(W.name, "matches");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Word {
    /// The function's or method's name.
    pub name: &'static str,
    /// What its first argument is.
    pub arg: Arg,
}

impl Word {
    /// A word.
    ///
    /// See the type's example.
    pub const fn new(name: &'static str, arg: Arg) -> Self {
        Word { name, arg }
    }
}

/// A check kind's declaration: what the runtime's check file says about itself (its tag, its
/// summary, its words), completed with the functions that build it by its line in the
/// runtime's registry.
///
/// ```
/// use agent_test_vocabulary::{Arg, Kind, Word};
/// const TEXT: Kind = Kind::new("text", "a reply, the replies or the conversation as text")
///     .words(&[Word::new("matches", Arg::Regex)]);
/// let registered = TEXT.built_by(&["reply", "replies"]);
/// assert_eq!(registered.tag, "text");
/// assert_eq!(registered.builders, ["reply", "replies"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// The `type` tag of its JSON form (`{"type": "tool", ..}`), as [`Check::kind`] says it.
    ///
    /// [`Check::kind`]: https://docs.rs/agent-test/latest/agent_test/check/enum.Check.html#method.kind
    pub tag: &'static str,
    /// What it checks, in one line (the reference's table of kinds).
    pub summary: &'static str,
    /// The functions that start a check of the kind (`tool`, `no_tool`, ..).
    pub builders: &'static [&'static str],
    /// Its functions and methods whose first argument the macro checks.
    pub words: &'static [Word],
}

impl Kind {
    /// A kind with its tag and summary, no builders and no words yet.
    ///
    /// See the type's example.
    pub const fn new(tag: &'static str, summary: &'static str) -> Kind {
        Kind {
            tag,
            summary,
            builders: &[],
            words: &[],
        }
    }

    /// The kind with its functions and methods whose first argument the macro checks.
    ///
    /// See the type's example.
    pub const fn words(self, words: &'static [Word]) -> Kind {
        Kind { words, ..self }
    }

    /// The kind with the functions that build it.
    ///
    /// See the type's example.
    pub const fn built_by(self, builders: &'static [&'static str]) -> Kind {
        Kind { builders, ..self }
    }
}

/// The words the macro checks: [`WORDS`] in use, or another table (a test adding a kind).
///
/// ```
/// use agent_test_vocabulary::{Arg, Vocabulary, Word};
/// let extended: Vec<Word> = agent_test_vocabulary::WORDS
///     .iter()
///     .copied()
///     .chain([Word::new("mentions_pattern", Arg::Regex)])
///     .collect();
/// let words = Vocabulary { words: &extended, options: agent_test_vocabulary::OPTIONS };
/// assert!(words.takes("mentions_pattern", Arg::Regex));
/// assert!(!Vocabulary::STANDARD.takes("mentions_pattern", Arg::Regex));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Vocabulary<'a> {
    /// Functions and methods with what their first argument is.
    pub words: &'a [Word],
    /// The options every check takes (`.id(..)`, `.warning()`, ..): they turn a check into an
    /// expectation, which has none of the check's own methods.
    pub options: &'a [&'a str],
}

impl Vocabulary<'static> {
    /// The check language as the runtime declares it.
    pub const STANDARD: Vocabulary<'static> = Vocabulary {
        words: WORDS,
        options: OPTIONS,
    };
}

impl Vocabulary<'_> {
    /// Whether `name`'s first argument is `arg`.
    ///
    /// See the type's example.
    pub fn takes(&self, name: &str, arg: Arg) -> bool {
        self.words.iter().any(|w| w.name == name && w.arg == arg)
    }

    /// Whether `name`'s first argument is written as text.
    ///
    /// See the crate's example.
    pub fn takes_text(&self, name: &str) -> bool {
        self.words.iter().any(|w| w.name == name && w.arg.is_text())
    }

    /// Whether `name` is an option every check takes.
    ///
    /// ```
    /// assert!(agent_test_vocabulary::Vocabulary::STANDARD.is_option("depends_on"));
    /// ```
    pub fn is_option(&self, name: &str) -> bool {
        self.options.contains(&name)
    }
}
