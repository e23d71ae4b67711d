//! Snapshot checks: a reply, or the tool calls made, compared with an accepted copy kept in a
//! file beside the test — changed on purpose by accepting the new one (`agent-test review`),
//! not by editing expectations.

use agent_test_vocabulary::Kind;
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Outcome, TextSource};
use crate::evaluate::context::EvalContext;
use crate::util::diff::{json_diff, text_diff};

/// What a snapshot keeps: a text, or the tool calls in scope (each with its arguments).
///
/// ```
/// use agent_test::check::{SnapshotOf, TextSource};
/// assert_eq!(SnapshotOf::Text(TextSource::Reply).to_string(), "reply");
/// assert_eq!(SnapshotOf::Calls { tool: None }.to_string(), "tool calls");
/// assert_eq!(SnapshotOf::Calls { tool: Some("book".into()) }.to_string(), "calls of `book`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields, remote = "Self")]
#[non_exhaustive]
pub enum SnapshotOf {
    /// A text: the reply, every reply, the conversation or a node's output.
    Text(TextSource),
    /// The tool calls in scope, in order, each as `{"tool": .., "arguments": ..}`: of one
    /// tool, or of every tool (the trajectory).
    Calls {
        /// Only the calls of this tool.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool: Option<String>,
    },
}

crate::util::json::one_key_enum!(SnapshotOf, ["text", "calls"]);

impl std::fmt::Display for SnapshotOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotOf::Text(source) => source.fmt(f),
            SnapshotOf::Calls { tool: None } => f.write_str("tool calls"),
            SnapshotOf::Calls { tool: Some(t) } => write!(f, "calls of `{t}`"),
        }
    }
}

/// The accepted snapshot a check compares with, as the run found it in its file.
///
/// A run fills it in before evaluating (see `agent_test::snapshot`); a
/// report keeps it with the check, so its transcript can be evaluated again against the same
/// snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields, remote = "Self")]
#[non_exhaustive]
pub enum Stored {
    /// The accepted snapshot's content.
    Accepted {
        /// The snapshot file.
        file: String,
        /// What it holds.
        content: String,
    },
    /// No snapshot has been accepted yet.
    Missing {
        /// Where it would be.
        file: String,
    },
    /// The file is there but cannot be used.
    Unreadable {
        /// The snapshot file.
        file: String,
        /// Why.
        reason: String,
    },
}

crate::util::json::one_key_enum!(Stored, ["accepted", "missing", "unreadable"]);

/// A check comparing a reply (or the tool calls) with the accepted snapshot. Build it with
/// [`Text::snapshot`](super::Text::snapshot) or [`ToolCheck::snapshot`](super::ToolCheck::snapshot).
///
/// In `agent_test!` the snapshot lives in `snapshots/` beside the test file, named after the
/// test's module, the scenario and the check's id (or its number among the scenario's
/// snapshots): `snapshots/suite__refund__1.snap`. When the reply differs — or no snapshot was
/// accepted yet — the check does not pass and the run writes the reply beside it as
/// `….snap.new`; `agent-test review` shows each as a diff to accept or reject.
///
/// Nothing is compared with nothing: without an accepted snapshot the verdict is an *error*,
/// never a pass. A snapshot is only as steady as the agent: use it with cassettes or recorded
/// runs (a run on a live model without a cassette says so in its report).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::Reply;
/// use agent_test::check::Stored;
/// use agent_test::model::{Transcript, Turn};
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello! How can I help?"), 1)]);
/// let accepted = |content: &str| reply().snapshot().stored(Stored::Accepted {
///     file: "snapshots/suite__greets__1.snap".into(), content: content.into() });
/// let v = evaluate(&t, &[
///     accepted("Hello! How can I help?").into_expectation(),
///     accepted("Hello!").into_expectation(),
///     reply().snapshot().into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].status, Status::Fail);
/// assert_eq!(v[1].reason, "reply differs from its snapshot snapshots/suite__greets__1.snap");
/// assert_eq!(v[2].status, Status::Error);
/// assert!(v[2].reason.starts_with("not compared: no snapshot was looked up"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "SnapshotData", into = "SnapshotData")]
pub struct SnapshotCheck {
    of: SnapshotOf,
    /// The accepted snapshot, once a run has looked it up.
    stored: Option<Stored>,
    /// Why the builder it was made from cannot be snapshotted (constraints it would drop).
    refused: Option<String>,
    /// An accepted snapshot of calls, read as JSON once (a mutation run evaluates the check on
    /// thousands of transcripts), or why it is not JSON.
    accepted_calls: Option<Result<Value, String>>,
}

/// The serialised form of a [`SnapshotCheck`] (the accepted calls are read again on load).
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SnapshotData {
    of: SnapshotOf,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stored: Option<Stored>,
}

impl From<SnapshotData> for SnapshotCheck {
    fn from(d: SnapshotData) -> Self {
        let check = SnapshotCheck::new(d.of);
        match d.stored {
            Some(stored) => check.stored(stored),
            None => check,
        }
    }
}

impl From<SnapshotCheck> for SnapshotData {
    fn from(c: SnapshotCheck) -> Self {
        SnapshotData {
            of: c.of,
            stored: c.stored,
        }
    }
}

impl SnapshotCheck {
    /// A snapshot of `of`.
    ///
    /// ```
    /// use agent_test::check::{SnapshotCheck, SnapshotOf};
    /// let c = SnapshotCheck::new(SnapshotOf::Calls { tool: None });
    /// assert_eq!(c.describe(), "tool calls match their snapshot");
    /// ```
    pub fn new(of: SnapshotOf) -> Self {
        SnapshotCheck {
            of,
            stored: None,
            refused: None,
            accepted_calls: None,
        }
    }

    pub(crate) fn refused(of: SnapshotOf, why: String) -> Self {
        SnapshotCheck {
            refused: Some(why),
            ..Self::new(of)
        }
    }

    /// The check with the accepted snapshot it compares with (what a run looks up).
    ///
    /// See the type's example.
    pub fn stored(mut self, stored: Stored) -> Self {
        self.accepted_calls = match (&self.of, &stored) {
            (SnapshotOf::Calls { .. }, Stored::Accepted { content, .. }) => {
                Some(serde_json::from_str(content).map_err(|e| e.to_string()))
            }
            _ => None,
        };
        self.stored = Some(stored);
        self
    }

    /// What the snapshot keeps.
    ///
    /// ```
    /// # use agent_test::{prelude::*, check::{SnapshotOf, TextSource}};
    /// assert_eq!(reply().snapshot().of(), &SnapshotOf::Text(TextSource::Reply));
    /// ```
    pub fn of(&self) -> &SnapshotOf {
        &self.of
    }

    /// The accepted snapshot looked up, if a run did.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert!(reply().snapshot().accepted().is_none());
    /// ```
    pub fn accepted(&self) -> Option<&Stored> {
        self.stored.as_ref()
    }

    /// One line describing the check.
    ///
    /// See [`SnapshotCheck::new`].
    pub fn describe(&self) -> String {
        match self.of {
            SnapshotOf::Text(_) => format!("{} matches its snapshot", self.of),
            SnapshotOf::Calls { .. } => format!("{} match their snapshot", self.of),
        }
    }

    /// What the snapshot would hold for this transcript: a text, or the calls as JSON.
    fn take(&self, cx: &EvalContext<'_>) -> Result<Value, String> {
        match &self.of {
            SnapshotOf::Text(source) => {
                if *source == TextSource::Reply
                    && let Some(e) = cx.failed_reply()
                {
                    return Err(e);
                }
                source
                    .read(cx)
                    .map(|t| Value::String(t.into_owned()))
                    .map_err(|e| format!("not compared: {e}"))
            }
            SnapshotOf::Calls { tool } => Ok(Value::Array(
                cx.tool_calls()
                    .iter()
                    .filter(|c| tool.as_ref().is_none_or(|t| *t == c.name))
                    .map(|c| serde_json::json!({"tool": c.name, "arguments": c.arguments}))
                    .collect(),
            )),
        }
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        let actual = match self.take(cx) {
            Ok(a) => a,
            Err(e) => return Outcome::error(e),
        };
        let (file, content) = match &self.stored {
            None => {
                return Outcome::error(
                    "not compared: no snapshot was looked up (a test of `agent_test!` finds it \
                     beside its file; a scenario with no file — `agent-test run` or `eval`, a \
                     check evaluated on its own — has none unless given with `.stored(..)`)",
                )
                .actual(actual);
            }
            Some(Stored::Missing { file }) => {
                return Outcome::error(format!(
                    "not compared: no snapshot accepted yet at {file} (accept the pending one \
                     with `agent-test review`)"
                ))
                .actual(actual);
            }
            Some(Stored::Unreadable { file, reason }) => {
                return Outcome::error(format!("not compared: snapshot {file}: {reason}"))
                    .actual(actual);
            }
            Some(Stored::Accepted { file, content }) => (file, content),
        };
        let differs = format!("{} differs from its snapshot {file}", self.of);
        match (&self.of, &actual) {
            (SnapshotOf::Text(_), Value::String(text)) => {
                if text == content {
                    Outcome::pass(format!("{} matches its snapshot {file}", self.of))
                } else {
                    Outcome::fail(differs)
                        .expected(Value::String(content.clone()))
                        .diff(text_diff(content, text))
                        .actual(actual)
                }
            }
            _ => {
                // Calls are compared as JSON: an object's key order is not a difference.
                // (`stored` reads an accepted snapshot of calls whenever it is given one.)
                let accepted = match self.accepted_calls.as_ref() {
                    Some(Ok(v)) => v,
                    other => {
                        let why = other
                            .and_then(|r| r.as_ref().err())
                            .map_or("not read", String::as_str);
                        return Outcome::error(format!(
                            "not compared: snapshot {file} is not the JSON of tool calls: {why}"
                        ))
                        .actual(actual);
                    }
                };
                if *accepted == actual {
                    Outcome::pass(format!("{} match their snapshot {file}", self.of))
                } else {
                    Outcome::fail(differs)
                        .diff(json_diff(accepted, &actual))
                        .expected(accepted.clone())
                        .actual(actual)
                }
            }
        }
    }

    /// The text a snapshot file holds for `actual` (an outcome's `actual`): the text itself,
    /// or the calls as indented JSON.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(reply().snapshot().content(&json!("Hello")), "Hello");
    /// assert_eq!(any_tool().snapshot().content(&json!([])), "[]");
    /// ```
    pub fn content(&self, actual: &Value) -> String {
        match (&self.of, actual) {
            (SnapshotOf::Text(_), Value::String(s)) => s.clone(),
            (_, v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        }
    }
}

/// The snapshot builders: on a text, and on a tool check's calls.
impl super::Text {
    /// Compares the text with its accepted snapshot, kept in a file beside the test; see
    /// [`SnapshotCheck`].
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(reply().snapshot().describe(), "reply matches its snapshot");
    /// ```
    pub fn snapshot(self) -> SnapshotCheck {
        SnapshotCheck::new(SnapshotOf::Text(self.source))
    }
}

impl super::ToolCheck {
    /// Compares the calls of this tool (of every tool, for [`any_tool`](super::any_tool): the trajectory) with
    /// their accepted snapshot: each call's name and arguments, in order; see
    /// [`SnapshotCheck`]. Take it from a bare `tool(..)` or
    /// `any_tool()`: a constraint the snapshot would drop (arguments, counts, filters) makes the
    /// check an error rather than be ignored.
    ///
    /// ```
    /// # use agent_test::{check::Check, prelude::*};
    /// assert_eq!(tool("book").snapshot().describe(), "calls of `book` match their snapshot");
    /// assert_eq!(any_tool().snapshot().describe(), "tool calls match their snapshot");
    /// assert_eq!(Check::from(tool("book").times(2).snapshot()).problem().unwrap(),
    ///            "snapshot() keeps the calls as they were: take it from `tool(\"book\")` alone, \
    ///             not from `tool `book` called exactly 2 times`");
    /// ```
    pub fn snapshot(self) -> SnapshotCheck {
        let of = SnapshotOf::Calls {
            tool: (!self.any_name).then(|| self.name.clone()),
        };
        let bare = if self.any_name {
            super::any_tool()
        } else {
            super::tool(self.name.clone())
        };
        if self == bare {
            SnapshotCheck::new(of)
        } else {
            let from = if self.any_name {
                "any_tool()".to_owned()
            } else {
                format!("tool({:?})", self.name)
            };
            let why = format!(
                "snapshot() keeps the calls as they were: take it from `{from}` alone, not from \
                 `{}`",
                self.describe()
            );
            SnapshotCheck::refused(of, why)
        }
    }
}

impl super::CheckRules for SnapshotCheck {
    const KIND: Kind = Kind::new(
        "snapshot",
        "a text (`reply().snapshot()`) or the calls (`tool(..).snapshot()`) against an accepted snapshot file",
    );

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            reply().snapshot().into_expectation(),
            tool("t").snapshot().into_expectation(),
            any_tool()
                .snapshot()
                .stored(super::Stored::Accepted {
                    file: "snapshots/s__x__1.snap".into(),
                    content: "[]".into(),
                })
                .into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        match &self.of {
            SnapshotOf::Text(source) => source.reads(),
            SnapshotOf::Calls { .. } => &[Part::Calls],
        }
    }

    fn problem(&self) -> Option<String> {
        if let Some(why) = &self.refused {
            return Some(why.clone());
        }
        match &self.of {
            SnapshotOf::Calls { tool: Some(t) } if t.is_empty() => {
                Some("a snapshot of the calls of a tool with an empty name".into())
            }
            _ => None,
        }
    }

    /// The calls' snapshot holds every call in scope: a pass rests on there being no other.
    fn claims_absence(&self) -> bool {
        matches!(self.of, SnapshotOf::Calls { .. })
    }

    /// Calls nobody saw could change the list either way.
    fn unseen_calls(&self) -> super::Unseen {
        match self.of {
            SnapshotOf::Calls { .. } => super::Unseen::NEITHER,
            SnapshotOf::Text(_) => super::Unseen::NOT_CONCERNED,
        }
    }
}
