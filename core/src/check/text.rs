//! Checks on text: the reply, every reply, or the whole conversation.

use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Outcome;
use crate::evaluate::context::EvalContext;
use crate::compare::path::FieldPath;
use crate::compare::pattern::Pattern;
use crate::compare::text_search::{Anchor, Literal};
use crate::model::CallKind;
use crate::util::diff::text_diff;

/// Which text a [`TextCheck`] reads.
///
/// ```
/// use agent_test::check::TextSource;
/// assert_eq!(TextSource::Reply.to_string(), "reply");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields, remote = "Self")]
#[non_exhaustive]
pub enum TextSource {
    /// The reply in scope: the turn's reply, or (after the turns) the final reply.
    Reply,
    /// Every agent reply in scope, joined with newlines.
    Replies,
    /// Every message in scope, the user's and system messages included, joined with newlines.
    Conversation,
    /// The output of the last workflow node in scope whose name contains `node` (Mibo's
    /// `target_node`), at a dot path (`output_key`; empty for the whole output), as text.
    NodeOutput {
        /// Text the node's name contains.
        node: String,
        /// Dot path into the output.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        path: String,
    },
}

crate::util::json::one_key_enum!(
    TextSource,
    ["reply", "replies", "conversation", "node_output"]
);

impl fmt::Display for TextSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextSource::Reply => f.write_str("reply"),
            TextSource::Replies => f.write_str("replies"),
            TextSource::Conversation => f.write_str("conversation"),
            TextSource::NodeOutput { node, path } if path.is_empty() => {
                write!(f, "output of node `{node}`")
            }
            TextSource::NodeOutput { node, path } => write!(f, "{path} of node `{node}`"),
        }
    }
}

impl TextSource {
    /// The text, or why there is none.
    pub(crate) fn read<'a>(&self, cx: &EvalContext<'a>) -> Result<Cow<'a, str>, String> {
        Ok(match self {
            TextSource::Reply => Cow::Borrowed(cx.reply()),
            TextSource::Replies => cx.replies(),
            TextSource::Conversation => cx.conversation_text(),
            TextSource::NodeOutput { node, path } => {
                let mut found = None;
                for t in cx.turns().iter().rev() {
                    for c in t.reply.calls.iter() {
                        c.walk(&mut |c| {
                            if c.kind == CallKind::Node && c.name.contains(node.as_str()) {
                                found = Some(c);
                            }
                        });
                    }
                    if found.is_some() {
                        break;
                    }
                }
                let call = found.ok_or_else(|| format!("no node named like `{node}` ran"))?;
                let output = call
                    .result
                    .as_ref()
                    .ok_or_else(|| format!("node `{}` has no output", call.name))?;
                let value = FieldPath::new(path.as_str()).get(output).ok_or_else(|| {
                    format!("the output of node `{}` has nothing at `{path}`", call.name)
                })?;
                match value {
                    Value::String(s) => Cow::Borrowed(s.as_str()),
                    other => Cow::Owned(crate::util::text::compact(other)),
                }
            }
        })
    }
}

/// The comparison a [`TextCheck`] makes.
///
/// ```
/// use agent_test::check::TextOp;
/// assert!(TextOp::NotContains.is_negative());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TextOp {
    /// The text contains the value.
    Contains,
    /// The text does not contain the value.
    NotContains,
    /// The text starts with the value.
    StartsWith,
    /// The text ends with the value.
    EndsWith,
    /// The text equals the value.
    Equals,
    /// The regex finds a match in the text.
    Matches,
    /// The regex finds no match in the text.
    NotMatches,
}

impl TextOp {
    /// Whether the check passes when the value is *not* found.
    ///
    /// See the type's example.
    pub fn is_negative(self) -> bool {
        matches!(self, TextOp::NotContains | TextOp::NotMatches)
    }

    fn is_regex(self) -> bool {
        matches!(self, TextOp::Matches | TextOp::NotMatches)
    }

    fn verb(self) -> &'static str {
        match self {
            TextOp::Contains => "contains",
            TextOp::NotContains => "does not contain",
            TextOp::StartsWith => "starts with",
            TextOp::EndsWith => "ends with",
            TextOp::Equals => "equals",
            TextOp::Matches => "matches",
            TextOp::NotMatches => "does not match",
        }
    }

    fn failed_verb(self) -> &'static str {
        match self {
            TextOp::Contains => "does not contain",
            TextOp::NotContains => "contains",
            TextOp::StartsWith => "does not start with",
            TextOp::EndsWith => "does not end with",
            TextOp::Equals => "does not equal",
            TextOp::Matches => "does not match",
            TextOp::NotMatches => "matches",
        }
    }
}

/// Selects a text to check; finish with a comparison such as [`Text::contains`].
///
/// Get one from [`reply`], [`replies`] or [`conversation`].
#[derive(Clone, Debug)]
pub struct Text {
    pub(super) source: TextSource,
}

/// The output of a workflow node (the last one in scope whose name contains `node`), as text:
/// for checks on one step of a multi-node workflow (Mibo's `target_node` / `output_key`).
///
/// ```
/// use agent_test::prelude::*;
/// let c = node_output("Message a model", "content.parts.0.text").contains("RSI");
/// assert_eq!(c.describe(), r#"content.parts.0.text of node `Message a model` contains "RSI""#);
/// ```
pub fn node_output(node: impl Into<String>, path: impl Into<String>) -> Text {
    Text {
        source: TextSource::NodeOutput {
            node: node.into(),
            path: path.into(),
        },
    }
}

/// The reply in scope: in a turn, that turn's reply; after the turns, the final reply.
///
/// Literal comparisons are case-insensitive unless [`TextCheck::case_sensitive`] is called;
/// regexes are case-sensitive unless they start with `(?i)` or [`TextCheck::case_insensitive`]
/// is called. Nothing is trimmed unless [`TextCheck::trimmed`] is called.
///
/// ```
/// use agent_test::prelude::*;
/// let check = reply().contains("refund processed");
/// # let _ = check;
/// ```
pub fn reply() -> Text {
    Text {
        source: TextSource::Reply,
    }
}

/// Every agent reply in scope, joined with newlines (in a turn, the same as [`reply`]).
///
/// ```
/// use agent_test::prelude::*;
/// let never_rude = replies().not_contains("stupid");
/// # let _ = never_rude;
/// ```
pub fn replies() -> Text {
    Text {
        source: TextSource::Replies,
    }
}

/// Every message in scope, the user's included, joined with newlines.
///
/// ```
/// use agent_test::prelude::*;
/// let mentions_order = conversation().matches(r"ORD-\d{4}");
/// # let _ = mentions_order;
/// ```
pub fn conversation() -> Text {
    Text {
        source: TextSource::Conversation,
    }
}

impl Text {
    fn literal(self, op: TextOp, value: impl Into<String>) -> TextCheck {
        TextCheck::build(self.source, op, value.into(), false, false)
    }

    /// The text contains `value` (case-insensitive by default).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().contains("Refund");
    /// # let _ = c;
    /// ```
    pub fn contains(self, value: impl Into<String>) -> TextCheck {
        self.literal(TextOp::Contains, value)
    }

    /// The text does not contain `value` (case-insensitive by default).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().not_contains("internal error");
    /// # let _ = c;
    /// ```
    pub fn not_contains(self, value: impl Into<String>) -> TextCheck {
        self.literal(TextOp::NotContains, value)
    }

    /// The text starts with `value` (case-insensitive by default, no trimming).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().starts_with("Hello");
    /// # let _ = c;
    /// ```
    pub fn starts_with(self, value: impl Into<String>) -> TextCheck {
        self.literal(TextOp::StartsWith, value)
    }

    /// The text ends with `value` (case-insensitive by default, no trimming).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().ends_with("thank you").trimmed();
    /// # let _ = c;
    /// ```
    pub fn ends_with(self, value: impl Into<String>) -> TextCheck {
        self.literal(TextOp::EndsWith, value)
    }

    /// The text equals `value` (case-insensitive by default, no trimming: a trailing newline
    /// makes it differ unless [`TextCheck::trimmed`] is called).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().equals("success");
    /// # let _ = c;
    /// ```
    pub fn equals(self, value: impl Into<String>) -> TextCheck {
        self.literal(TextOp::Equals, value)
    }

    /// The regex (Rust `regex` syntax, unanchored search) finds a match. Case-sensitive unless
    /// it starts with `(?i)`. A literal pattern in `agent_test!` is validated at compile time;
    /// an invalid pattern built at run time gives an *error* verdict.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().matches(r"refund\s+(processed|completed)");
    /// # let _ = c;
    /// ```
    pub fn matches(self, regex: impl Into<String>) -> TextCheck {
        TextCheck::build(self.source, TextOp::Matches, regex.into(), true, false)
    }

    /// The regex finds no match (see [`Text::matches`]).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().not_matches("(?i)error|exception|failed");
    /// # let _ = c;
    /// ```
    pub fn not_matches(self, regex: impl Into<String>) -> TextCheck {
        TextCheck::build(self.source, TextOp::NotMatches, regex.into(), true, false)
    }

    /// The text's length in characters; see [`LengthCheck`](super::LengthCheck).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().length().at_most(280);
    /// # let _ = c;
    /// ```
    pub fn length(self) -> super::Length {
        super::Length::of(self.source)
    }
}

/// A check comparing a text with a value or a regex. Build one from [`reply`], [`replies`] or
/// [`conversation`].
///
/// The comparison is compiled once, when the check is built. A check that would compare
/// nothing — an empty text to look for (`contains("")`, `not_contains("")`, `starts_with("")`,
/// `ends_with("")`), a regex that matches every text (`""`, `x*`, `(a)?`) — is an *error*
/// verdict "compared nothing: …", never a pass. `equals("")` compares: the text must be empty.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Refund PROCESSED."), 1)]);
/// let v = evaluate(&t, &[
///     reply().contains("refund processed").into_expectation(),
///     reply().contains("refund processed").case_sensitive().into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].status, Status::Fail);
/// assert_eq!(v[1].reason, r#"reply does not contain "refund processed" (case-sensitive)"#);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "TextCheckData", into = "TextCheckData")]
pub struct TextCheck {
    source: TextSource,
    op: TextOp,
    value: String,
    case_sensitive: bool,
    trim: bool,
    search: Search,
}

/// How the text is searched: a regex (interned process-wide), or a literal without one.
#[derive(Clone, Debug, PartialEq)]
enum Search {
    Regex(Pattern),
    Literal(Literal),
}

/// The serialised form of a [`TextCheck`] (its compiled pattern is rebuilt on load).
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TextCheckData {
    source: TextSource,
    op: TextOp,
    value: String,
    #[serde(default)]
    case_sensitive: Option<bool>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    trim: bool,
}

impl From<TextCheckData> for TextCheck {
    fn from(d: TextCheckData) -> Self {
        let case_sensitive = d.case_sensitive.unwrap_or(d.op.is_regex());
        TextCheck::build(d.source, d.op, d.value, case_sensitive, d.trim)
    }
}

impl From<TextCheck> for TextCheckData {
    fn from(c: TextCheck) -> Self {
        TextCheckData {
            source: c.source,
            op: c.op,
            value: c.value,
            case_sensitive: Some(c.case_sensitive),
            trim: c.trim,
        }
    }
}

impl TextCheck {
    fn build(
        source: TextSource,
        op: TextOp,
        value: String,
        case_sensitive: bool,
        trim: bool,
    ) -> Self {
        let search = Self::search(op, &value, case_sensitive);
        TextCheck {
            source,
            op,
            value,
            case_sensitive,
            trim,
            search,
        }
    }

    fn search(op: TextOp, value: &str, case_sensitive: bool) -> Search {
        if op.is_regex() {
            return Search::Regex(if case_sensitive {
                Pattern::new(value)
            } else {
                Pattern::case_insensitive(value)
            });
        }
        let anchor = match op {
            TextOp::StartsWith => Anchor::Start,
            TextOp::EndsWith => Anchor::End,
            TextOp::Equals => Anchor::Both,
            _ => Anchor::None,
        };
        Search::Literal(Literal::new(value, anchor, !case_sensitive))
    }

    /// Compare case-sensitively (literal comparisons are case-insensitive by default).
    ///
    /// See the type's example.
    pub fn case_sensitive(self) -> Self {
        self.with_case(true)
    }

    /// Compare case-insensitively (regexes are case-sensitive by default).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().matches("refund").case_insensitive();
    /// # let _ = c;
    /// ```
    pub fn case_insensitive(self) -> Self {
        self.with_case(false)
    }

    fn with_case(mut self, case_sensitive: bool) -> Self {
        if self.case_sensitive != case_sensitive {
            self.case_sensitive = case_sensitive;
            self.search = Self::search(self.op, &self.value, case_sensitive);
        }
        self
    }

    /// Trim surrounding whitespace from the **actual** text (the reply, or whichever text the
    /// check reads) before comparing. The expected text is compared as written, so
    /// `equals(" done ").trimmed()` can never pass: write the expected text without the
    /// whitespace.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = reply().equals("done").trimmed();
    /// # let _ = c;
    /// ```
    pub fn trimmed(mut self) -> Self {
        self.trim = true;
        self
    }

    /// One line describing the check: `reply contains "refund"`.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(reply().not_matches("x+").describe(), "reply does not match /x+/");
    /// ```
    pub fn describe(&self) -> String {
        format!("{} {} {}", self.source, self.op.verb(), self.shown_value())
    }

    fn shown_value(&self) -> String {
        if self.op.is_regex() {
            format!("/{}/", self.value)
        } else {
            format!("{:?}", self.value)
        }
    }

    /// Why the check would compare nothing: an empty text to look for (found in, or missing
    /// from, every text), or a regex that matches every text. `equals("")` compares: it
    /// requires an empty text.
    fn compares_nothing(&self) -> Option<String> {
        if let Search::Regex(pattern) = &self.search {
            pattern.matches_everything().then(|| {
                format!(
                    "compared nothing: the regex /{}/ matches every text (it matches the empty \
                     string)",
                    self.value
                )
            })
        } else {
            (self.value.is_empty() && self.op != TextOp::Equals)
                .then(|| "compared nothing: the text to look for is empty".to_owned())
        }
    }

    fn qualifier(&self) -> &'static str {
        match (self.op.is_regex(), self.case_sensitive) {
            (false, true) => " (case-sensitive)",
            (true, false) => " (case-insensitive)",
            _ => "",
        }
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if let Search::Regex(pattern) = &self.search
            && let Err(e) = pattern.regex()
        {
            return Outcome::error(e);
        }
        if let Some(p) = self.compares_nothing() {
            return Outcome::error(p);
        }
        if self.source == TextSource::Reply
            && let Some(e) = cx.failed_reply()
        {
            return Outcome::error(e);
        }
        let text = match self.source.read(cx) {
            Ok(t) => t,
            Err(e) => return Outcome::fail(format!("{} {}: {e}", self.source, self.op.verb())),
        };
        let text = if self.trim { text.trim() } else { &text };
        let found = match &self.search {
            Search::Regex(p) => p
                .regex()
                .ok()
                .and_then(|r| r.find(text))
                .map(|m| (m.start(), m.end())),
            Search::Literal(l) => match l.find(text) {
                Ok(found) => found,
                Err(e) => return Outcome::error(e),
            },
        };
        let ok = found.is_some() != self.op.is_negative();
        if ok {
            return Outcome::passed();
        }
        let mut reason = format!(
            "{} {} {}{}",
            self.source,
            self.op.failed_verb(),
            self.shown_value(),
            self.qualifier()
        );
        if let Some((start, end)) = found {
            reason.push_str(&format!(": found {:?}", snippet(text, start, end)));
        }
        let mut outcome = Outcome::fail(reason)
            .expected(Value::String(self.value.clone()))
            .actual(Value::String(text.to_owned()));
        if matches!(
            self.op,
            TextOp::Equals | TextOp::StartsWith | TextOp::EndsWith
        ) {
            outcome = outcome.diff(text_diff(&self.value, text));
        }
        outcome
    }
}

/// The matched part of `text` with a little context on each side.
fn snippet(text: &str, start: usize, end: usize) -> String {
    const CONTEXT: usize = 24;
    let from = floor_char(text, start.saturating_sub(CONTEXT));
    let to = ceil_char(text, (end + CONTEXT).min(text.len()));
    let mut s = String::new();
    if from > 0 {
        s.push('…');
    }
    s.push_str(&text[from..to]);
    if to < text.len() {
        s.push('…');
    }
    s
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl super::CheckRules for TextCheck {
    const KIND: Kind = Kind::new(
        "text",
        "a reply, the replies, the conversation or a node's output as text: contains, equals, matches",
    )
    .words(&[
        Word::new("contains", Arg::Text),
        Word::new("not_contains", Arg::Text),
        Word::new("starts_with", Arg::Text),
        Word::new("ends_with", Arg::Text),
        Word::new("matches", Arg::Regex),
        Word::new("not_matches", Arg::Regex),
        Word::new("node_output", Arg::Text),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            reply()
                .contains("hi")
                .case_sensitive()
                .trimmed()
                .id("text")
                .depends_on("tool")
                .warning()
                .label("label"),
            replies().matches("x").so_far(),
            node_output("Agent", "output.text").equals("x").into_expectation(),
        ]
    }

    fn literal_problem(&self) -> Option<String> {
        match &self.search {
            Search::Regex(pattern) => pattern.regex().err().map(ToOwned::to_owned),
            Search::Literal(_) => None,
        }
    }

    fn reads(&self) -> &'static [Part] {
        self.source.reads()
    }

    /// Whether a pass rests on text not written: `not_contains` / `not_matches` over the
    /// replies or the conversation (several turns).
    fn claims_absence(&self) -> bool {
        matches!(self.op, TextOp::NotContains | TextOp::NotMatches)
            && matches!(self.source, TextSource::Replies | TextSource::Conversation)
    }
}

impl TextSource {
    /// The part of a turn the text comes from.
    pub(crate) fn reads(&self) -> &'static [Part] {
        match self {
            TextSource::Reply | TextSource::Replies | TextSource::Conversation => {
                &[Part::ReplyText]
            }
            TextSource::NodeOutput { .. } => &[Part::Calls, Part::Results],
        }
    }
}
