//! Where JSON checks read their JSON: the response body, the reply text, a fenced code block
//! in the reply, or a workflow node's output.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::evaluate::context::EvalContext;
use crate::evaluate::context::ReplyJson;
use crate::model::CallKind;

/// Which JSON a JSON check reads, in the last turn of its scope.
///
/// ```
/// use agent_test::check::JsonSource;
/// assert_eq!(JsonSource::default(), JsonSource::Auto);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields, remote = "Self")]
#[non_exhaustive]
pub enum JsonSource {
    /// The response body when the agent gave one (an HTTP agent's JSON response), else the
    /// reply text parsed as JSON.
    #[default]
    Auto,
    /// The response body only.
    Body,
    /// The reply text parsed as JSON.
    Reply,
    /// The first fenced code block of the reply (```` ```json ... ``` ````) parsed as JSON.
    Fenced,
    /// The output (result) of the first workflow node whose name contains this text.
    Node(String),
    /// The first JSON object or array in the reply's prose: from the first `{` or `[` that
    /// begins a complete JSON value (text before and after it is ignored).
    Embedded,
    /// PromptKit's reading: with `fenced` (its `allow_wrapped`), the content of a
    /// ```` ```json ```` block when the reply has one; with `embedded` (its `extract_json`),
    /// the balanced value from the first `{` of the reply (else the first `[`); otherwise
    /// the whole reply.
    Lenient {
        /// Read a fenced block when there is one.
        fenced: bool,
        /// Read the first object (else array) in the text.
        embedded: bool,
    },
}

crate::util::json::one_key_enum!(
    JsonSource,
    [
        "auto", "body", "reply", "fenced", "node", "embedded", "lenient"
    ]
);

impl JsonSource {
    /// Why the JSON is absent because the agent failed on the last turn in scope (a node's
    /// output is looked for in every turn, so it is not concerned).
    pub(crate) fn failed(&self, cx: &EvalContext<'_>) -> Option<String> {
        match self {
            JsonSource::Node(_) => None,
            _ => cx.failed_reply(),
        }
    }

    /// Reads the JSON; `Err` says why there is none ("the reply is not valid JSON: ...").
    pub(crate) fn read<'a>(&self, cx: &EvalContext<'a>) -> Result<&'a Value, String> {
        let Some(turn) = cx.last_turn() else {
            return Err("no turn ran".to_owned());
        };
        match self {
            JsonSource::Body => turn
                .reply
                .body
                .as_ref()
                .ok_or_else(|| "the response has no body".to_owned()),
            JsonSource::Auto => match &turn.reply.body {
                Some(body) => Ok(body),
                None => cx.reply_json(turn.index, false).map_err(str::to_owned),
            },
            JsonSource::Reply => cx.reply_json(turn.index, false).map_err(str::to_owned),
            JsonSource::Fenced => cx.reply_json(turn.index, true).map_err(str::to_owned),
            JsonSource::Embedded => cx
                .reply_json_as(turn.index, ReplyJson::Embedded)
                .map_err(str::to_owned),
            JsonSource::Lenient { fenced, embedded } => cx
                .reply_json_as(
                    turn.index,
                    ReplyJson::Lenient {
                        fenced: *fenced,
                        embedded: *embedded,
                    },
                )
                .map_err(str::to_owned),
            JsonSource::Node(name) => {
                let mut found = None;
                for t in cx.turns().iter().rev() {
                    for c in &t.reply.calls {
                        c.walk(&mut |c| {
                            if found.is_none()
                                && c.kind == CallKind::Node
                                && c.name.contains(name.as_str())
                            {
                                found = Some(c);
                            }
                        });
                    }
                    if found.is_some() {
                        break;
                    }
                }
                match found {
                    None => Err(format!("no node named like `{name}` ran")),
                    Some(c) => c
                        .result
                        .as_ref()
                        .ok_or_else(|| format!("node `{}` has no output", c.name)),
                }
            }
        }
    }

    pub(crate) fn describe(&self) -> String {
        match self {
            JsonSource::Auto => "the response".to_owned(),
            JsonSource::Body => "the response body".to_owned(),
            JsonSource::Reply => "the reply".to_owned(),
            JsonSource::Fenced => "the reply's code block".to_owned(),
            JsonSource::Node(n) => format!("the output of node `{n}`"),
            JsonSource::Embedded => "the JSON in the reply".to_owned(),
            JsonSource::Lenient { .. } => "the reply".to_owned(),
        }
    }
}

/// Methods choosing the [`JsonSource`] of a JSON check.
pub trait JsonSourceOptions: Sized {
    /// Sets the source.
    fn with_source(self, source: JsonSource) -> Self;

    /// Read the response body only (not the reply text).
    fn in_body(self) -> Self {
        self.with_source(JsonSource::Body)
    }

    /// Read the reply text parsed as JSON (not the body).
    fn in_reply(self) -> Self {
        self.with_source(JsonSource::Reply)
    }

    /// Read the first fenced code block of the reply, for agents that wrap JSON in Markdown.
    fn in_code_block(self) -> Self {
        self.with_source(JsonSource::Fenced)
    }

    /// Read the output of the first workflow node whose name contains `name`.
    fn in_node(self, name: impl Into<String>) -> Self {
        self.with_source(JsonSource::Node(name.into()))
    }

    /// Read the first JSON object or array embedded in the reply's prose ("Here is the order:
    /// {\"id\": 7}. Anything else?"): from the first `{` or `[` that begins a complete JSON value.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::check::Status;
    /// use agent_test::evaluate;
    /// use agent_test::model::{Reply, Transcript, Turn};
    /// let t = Transcript::new(vec![Turn::new(0, "q", Reply::text(r#"Sure! Here it is: {"status": "shipped"} Anything else?"#), 1)]);
    /// let v = evaluate(&t, &[
    ///     field("status").is("shipped").in_text().into_expectation(),
    ///     field("status").is("shipped").into_expectation(),
    /// ]);
    /// assert_eq!(v[0].status, Status::Pass);
    /// assert_eq!(v[1].status, Status::Fail); // the whole reply is not JSON
    /// ```
    fn in_text(self) -> Self {
        self.with_source(JsonSource::Embedded)
    }
}

impl JsonSource {
    /// The part of a turn the JSON comes from: the body is always whole when present (the
    /// reply text is the fallback of `Auto` only without one).
    pub(crate) fn reads(&self) -> &'static [crate::model::Part] {
        use crate::model::Part;
        match self {
            JsonSource::Auto | JsonSource::Body => &[],
            JsonSource::Node(_) => &[Part::Calls, Part::Results],
            JsonSource::Reply
            | JsonSource::Fenced
            | JsonSource::Embedded
            | JsonSource::Lenient { .. } => &[Part::ReplyText],
        }
    }
}
