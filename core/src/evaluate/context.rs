//! The view of a transcript that checks evaluate against.

use std::borrow::Cow;
use std::cell::OnceCell;

use jiff::Zoned;
use serde_json::Value;

use crate::compare::expression::Env;
use crate::model::judgement::{JudgeItem, Judgement, Judgements};
use crate::model::scope::Scope;
use crate::model::{Call, CallKind, Transcript, Turn};

/// Which calls a check looks at.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Target {
    /// Tool calls (including those nested in workflow nodes).
    #[default]
    Tool,
    /// Workflow nodes.
    Node,
    /// Both: a node in a workflow trace, or a tool call in a flat one.
    Any,
}

impl Target {
    /// `tool`, `node` or `call`, for messages.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Target::Tool => "tool",
            Target::Node => "node",
            Target::Any => "call",
        }
    }

    fn includes(self, kind: CallKind) -> bool {
        match self {
            Target::Tool => kind == CallKind::Tool,
            Target::Node => kind == CallKind::Node,
            Target::Any => true,
        }
    }
}

/// A reply parsed as JSON on first use, or why it is not JSON.
type ParsedJson = OnceCell<Result<Value, String>>;

/// Which JSON of a reply's text: the whole text, its first fenced code block, the first JSON
/// object or array in the prose, or PromptKit's lenient reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyJson {
    /// The whole text.
    Whole,
    /// The first fenced code block.
    Fenced,
    /// The first `{` or `[` of the text that begins a complete JSON value.
    Embedded,
    /// PromptKit's `allow_wrapped` (`fenced`: a ```` ```json ```` block's content when there is
    /// one) and `extract_json` (`embedded`: from the first `{` — else the first `[` — the
    /// balanced value there); else the whole text.
    Lenient {
        /// `allow_wrapped`.
        fenced: bool,
        /// `extract_json`.
        embedded: bool,
    },
}

impl ReplyJson {
    /// The index of its cache cell.
    fn cell(self) -> usize {
        match self {
            ReplyJson::Whole => 0,
            ReplyJson::Fenced => 1,
            ReplyJson::Embedded => 2,
            ReplyJson::Lenient { fenced, embedded } => {
                3 + usize::from(fenced) + 2 * usize::from(embedded)
            }
        }
    }
}

/// How many kinds of [`ReplyJson`] are cached per turn.
const REPLY_JSON_KINDS: usize = 7;

/// The calls of one target, depth-first in call order, for the whole conversation; turn `i`'s
/// calls are `calls[starts[i]..starts[i + 1]]`.
#[derive(Default)]
struct CallLists<'t> {
    calls: Vec<&'t Call>,
    starts: Vec<usize>,
}

impl<'t> CallLists<'t> {
    fn of(transcript: &'t Transcript, target: Target) -> Self {
        fn collect<'t>(calls: &'t [Call], target: Target, out: &mut Vec<&'t Call>) {
            for c in calls {
                if target.includes(c.kind) {
                    out.push(c);
                }
                collect(&c.children, target, out);
            }
        }
        let mut lists = CallLists {
            calls: Vec::new(),
            starts: Vec::with_capacity(transcript.turns.len() + 1),
        };
        for turn in &transcript.turns {
            lists.starts.push(lists.calls.len());
            collect(&turn.reply.calls, target, &mut lists.calls);
        }
        lists.starts.push(lists.calls.len());
        lists
    }

    fn turn(&self, i: usize) -> &[&'t Call] {
        // `i` may come from a file: any number, so no `i + 1` that could overflow.
        let next = i.checked_add(1).and_then(|j| self.starts.get(j));
        match (self.starts.get(i), next) {
            (Some(&a), Some(&b)) => self.calls.get(a..b).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The calls of turns `0..=i`.
    fn up_to(&self, i: usize) -> &[&'t Call] {
        match i.checked_add(1).and_then(|j| self.starts.get(j)) {
            Some(&end) => self.calls.get(..end).unwrap_or(&[]),
            None => &[],
        }
    }

    /// The turn of the call at conversation position `pos`.
    fn turn_of(&self, pos: usize) -> usize {
        self.starts.partition_point(|&s| s <= pos).saturating_sub(1)
    }
}

/// Per-transcript data computed once and shared by every check of a run: flattened calls,
/// joined texts, parsed JSON replies, "now". Everything but the tool-call lists is computed on
/// first use, so checks that do not need it do not pay for it.
pub struct TranscriptIndex<'t> {
    transcript: &'t Transcript,
    /// The judge's grades for this run, when a judge ran.
    judgements: Option<&'t Judgements>,
    /// Tool calls.
    tools: CallLists<'t>,
    /// Nodes, and calls of any kind, built on first use.
    others: OnceCell<[CallLists<'t>; 2]>,
    now: OnceCell<Zoned>,
    replies: OnceCell<String>,
    conversation_text: OnceCell<String>,
    /// Per turn: the reply parsed as JSON in each way of [`ReplyJson`].
    json: OnceCell<Vec<[ParsedJson; REPLY_JSON_KINDS]>>,
}

impl<'t> TranscriptIndex<'t> {
    /// The transcript indexed.
    pub(crate) fn transcript(&self) -> &'t Transcript {
        self.transcript
    }

    /// The index with the judge's grades for judge checks.
    #[doc(hidden)]
    pub fn with_judgements(mut self, judgements: Option<&'t Judgements>) -> Self {
        self.judgements = judgements;
        self
    }

    #[doc(hidden)]
    pub fn new(transcript: &'t Transcript) -> Self {
        TranscriptIndex {
            transcript,
            judgements: None,
            tools: CallLists::of(transcript, Target::Tool),
            others: OnceCell::new(),
            now: OnceCell::new(),
            replies: OnceCell::new(),
            conversation_text: OnceCell::new(),
            json: OnceCell::new(),
        }
    }

    fn lists(&self, target: Target) -> &CallLists<'t> {
        match target {
            Target::Tool => &self.tools,
            Target::Node | Target::Any => {
                let others = self.others.get_or_init(|| {
                    [
                        CallLists::of(self.transcript, Target::Node),
                        CallLists::of(self.transcript, Target::Any),
                    ]
                });
                let [nodes, any] = others;
                if target == Target::Any { any } else { nodes }
            }
        }
    }

    fn now(&self) -> &Zoned {
        self.now.get_or_init(|| {
            // The judge phase's "now", so that semantic date matchers are graded and looked up
            // against the same instant.
            self.judgements
                .and_then(Judgements::now)
                .or(self.transcript.user_time.as_ref())
                .cloned()
                .unwrap_or_else(|| jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC))
        })
    }
}

/// What a check sees when it is evaluated: the transcript, restricted to the check's scope.
///
/// Custom checks receive one (see [`check`](crate::check::check)).
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Call, Reply, Transcript, Turn};
///
/// let transcript = Transcript::new(vec![
///     Turn::new(0, "hi", Reply::text("Hello").call(Call::tool("greet", serde_json::json!({}))), 3),
/// ]);
/// let short = check("reply is short", |cx| cx.reply().len() < 20);
/// let verdicts = evaluate(&transcript, &[short.into_expectation()]);
/// assert_eq!(verdicts[0].status, Status::Pass);
/// ```
pub struct EvalContext<'a> {
    index: &'a TranscriptIndex<'a>,
    scope: Scope,
}

impl<'a> EvalContext<'a> {
    #[doc(hidden)]
    pub fn new(index: &'a TranscriptIndex<'a>, scope: Scope) -> Self {
        EvalContext { index, scope }
    }

    /// The scope being evaluated.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// The whole transcript (regardless of scope).
    pub fn transcript(&self) -> &'a Transcript {
        self.index.transcript
    }

    /// The shared index (for work over the whole run).
    #[doc(hidden)]
    pub fn index(&self) -> &'a TranscriptIndex<'a> {
        self.index
    }

    /// What expressions are evaluated against: the run's "now" and context variables.
    pub fn env(&self) -> Env<'a> {
        Env {
            now: self.index.now(),
            context: &self.index.transcript.context,
            judgements: self.index.judgements,
        }
    }

    /// The turns in scope: one turn, those up to one, or all of them. Empty when the scoped
    /// turn does not exist.
    pub fn turns(&self) -> &'a [Turn] {
        let turns = &self.index.transcript.turns;
        match self.scope {
            Scope::Turn(i) => turns.get(i..=i).unwrap_or(&[]),
            Scope::UpTo(i) => turns.get(..=i).unwrap_or(&[]),
            Scope::Conversation => turns,
        }
    }

    /// The judge's grade of `item`, or why there is none.
    pub(crate) fn judgement(&self, item: &JudgeItem) -> Result<&'a Judgement, String> {
        match self.index.judgements {
            Some(j) => j.get(item),
            None => Err(
                "judge checks are graded when a scenario runs (ScenarioRun::report) \
                         or with ScenarioEvaluator::evaluate_judged; this evaluation had no judge"
                    .into(),
            ),
        }
    }

    /// The last turn in scope.
    pub fn last_turn(&self) -> Option<&'a Turn> {
        self.turns().last()
    }

    /// Why the reply in scope is absent: the last turn in scope is one on which the agent failed
    /// (after the turns, the final turn; in a turn's own scope the evaluator has already said
    /// so). Checks that read that reply are then errors, not checks of an empty text.
    pub(crate) fn failed_reply(&self) -> Option<String> {
        let t = self.last_turn()?;
        let e = t.error.as_ref()?;
        Some(format!(
            "not evaluated: the agent failed on turn {}: {e}",
            crate::model::turn_number(t.index)
        ))
    }

    /// The reply in scope: the turn's reply, or the final reply of the conversation.
    pub fn reply(&self) -> &'a str {
        self.last_turn().map_or("", |t| t.reply.text.as_str())
    }

    /// Every reply in scope, joined with newlines.
    pub fn replies(&self) -> Cow<'a, str> {
        match self.scope {
            Scope::Turn(_) => Cow::Borrowed(self.reply()),
            Scope::UpTo(_) => Cow::Owned(join(self.turns().iter().map(|t| t.reply.text.as_str()))),
            Scope::Conversation => Cow::Borrowed(self.index.replies.get_or_init(|| {
                join(
                    self.index
                        .transcript
                        .turns
                        .iter()
                        .map(|t| t.reply.text.as_str()),
                )
            })),
        }
    }

    /// Every message in scope (history and system messages, user inputs and replies) joined
    /// with newlines.
    pub fn conversation_text(&self) -> Cow<'a, str> {
        match self.scope {
            Scope::Turn(i) => match self.index.transcript.turns.get(i) {
                Some(t) => Cow::Owned(join(
                    t.before
                        .iter()
                        .map(|m| m.content.as_str())
                        .chain([t.input.as_str(), t.reply.text.as_str()]),
                )),
                None => Cow::Borrowed(""),
            },
            Scope::UpTo(_) => Cow::Owned(join(self.index.transcript.message_texts(self.turns()))),
            Scope::Conversation => Cow::Borrowed(self.index.conversation_text.get_or_init(|| {
                let t = self.index.transcript;
                join(t.message_texts(&t.turns))
            })),
        }
    }

    /// The tool calls in scope, depth-first in call order (workflow nodes excluded). A call's
    /// index in this slice is its *position* for position checks.
    pub fn tool_calls(&self) -> &'a [&'a Call] {
        self.calls(Target::Tool)
    }

    /// The calls of a target in scope, depth-first in call order.
    pub fn calls(&self, target: Target) -> &'a [&'a Call] {
        let lists = self.index.lists(target);
        match self.scope {
            Scope::Turn(i) => lists.turn(i),
            Scope::UpTo(i) => lists.up_to(i),
            Scope::Conversation => &lists.calls,
        }
    }

    /// How messages name the `i`-th call of [`EvalContext::calls`]: `position 1` in a turn
    /// (as the transcript numbers calls), `conversation position 3` after the turns.
    pub fn position_name(&self, i: usize) -> String {
        match self.scope {
            Scope::Turn(_) => format!("position {i}"),
            Scope::UpTo(_) | Scope::Conversation => format!("conversation position {i}"),
        }
    }

    /// How messages name several calls of [`EvalContext::calls`]: `positions 0 and 2` in a
    /// turn, `conversation positions 0, 2 and 3` after the turns.
    pub(crate) fn positions_name(&self, at: &[usize]) -> String {
        let numbers: Vec<String> = at.iter().map(usize::to_string).collect();
        let numbers = match numbers.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => numbers.join(", "),
        };
        match self.scope {
            Scope::Turn(_) => format!("positions {numbers}"),
            Scope::UpTo(_) | Scope::Conversation => format!("conversation positions {numbers}"),
        }
    }

    /// The 0-based turn of the `i`-th call of [`EvalContext::tool_calls`].
    pub fn turn_of_call(&self, i: usize) -> usize {
        self.turn_of(Target::Tool, i)
    }

    /// The 0-based turn of the `i`-th call of [`EvalContext::calls`] for `target`.
    pub fn turn_of(&self, target: Target, i: usize) -> usize {
        match self.scope {
            Scope::Turn(t) => t,
            Scope::UpTo(_) | Scope::Conversation => self.index.lists(target).turn_of(i),
        }
    }

    /// The reply of turn `i` parsed as JSON (computed once per turn); `fenced` takes the first
    /// fenced code block (```` ```json ... ``` ````) of the reply instead of the whole text.
    pub fn reply_json(&self, turn: usize, fenced: bool) -> Result<&'a Value, &'a str> {
        let how = if fenced {
            ReplyJson::Fenced
        } else {
            ReplyJson::Whole
        };
        self.reply_json_as(turn, how)
    }

    /// The reply of turn `i` read as JSON in the way `how` says (computed once per turn).
    #[doc(hidden)]
    pub fn reply_json_as(&self, turn: usize, how: ReplyJson) -> Result<&'a Value, &'a str> {
        let turns = &self.index.transcript.turns;
        let cells = self.index.json.get_or_init(|| {
            turns
                .iter()
                .map(|_| std::array::from_fn(|_| OnceCell::new()))
                .collect()
        });
        let (Some(cell), Some(t)) = (
            cells.get(turn).and_then(|c| c.get(how.cell())),
            turns.get(turn),
        ) else {
            return Err("no such turn");
        };
        cell.get_or_init(|| read_json(&t.reply.text, how))
            .as_ref()
            .map_err(String::as_str)
    }
}

/// `text` read as JSON in the way `how` says, or why it is not JSON.
fn read_json(text: &str, how: ReplyJson) -> Result<Value, String> {
    let whole = |text: &str| {
        serde_json::from_str(text.trim()).map_err(|e| format!("the reply is not valid JSON: {e}"))
    };
    match how {
        ReplyJson::Whole => whole(text),
        ReplyJson::Fenced => {
            let block = fenced_block(text)
                .ok_or_else(|| "the reply has no fenced code block".to_owned())?;
            whole(block)
        }
        ReplyJson::Embedded => {
            for (i, _) in text.match_indices(['{', '[']) {
                if let Some(Ok(v)) = balanced(&text[i..]).map(serde_json::from_str::<Value>) {
                    return Ok(v);
                }
            }
            Err("the reply has no JSON object or array".to_owned())
        }
        ReplyJson::Lenient { fenced, embedded } => {
            if fenced && let Some(block) = json_fence(text) {
                return whole(block);
            }
            if embedded {
                for open in ['{', '['] {
                    // Not closed: the next kind of value, as PromptKit's extraction does.
                    let Some(value) = text.find(open).and_then(|i| balanced(&text[i..])) else {
                        continue;
                    };
                    return serde_json::from_str(value)
                        .map_err(|e| format!("the JSON in the reply is not valid: {e}"));
                }
            }
            whole(text)
        }
    }
}

/// The bracketed text at the start of `text` (which starts with `{` or `[`) up to the bracket
/// that closes it, brackets inside JSON strings aside: `None` when it is not closed.
fn balanced(text: &str) -> Option<&str> {
    let open = text.chars().next()?;
    let close = if open == '{' { '}' } else { ']' };
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            c if c == open && !in_string => depth += 1,
            c if c == close && !in_string => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[..=i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The content of the first ```` ``` ```` or ```` ```json ```` block whose opening line has
/// nothing else (PromptKit's `allow_wrapped`), trimmed.
fn json_fence(text: &str) -> Option<&str> {
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let after_tag = after.strip_prefix("json").unwrap_or(after);
        let line_end = after_tag.find('\n')?;
        if after_tag[..line_end].trim().is_empty() {
            let body = &after_tag[line_end + 1..];
            let end = body.find("\n```")?;
            return Some(body[..end].trim());
        }
        rest = after;
    }
    None
}

/// The content of the first fenced code block (```` ``` ```` or `~~~`, any info string).
fn fenced_block(text: &str) -> Option<&str> {
    for fence in ["```", "~~~"] {
        if let Some(start) = text.find(fence) {
            let after = &text[start + fence.len()..];
            let body_start = after.find('\n')? + 1;
            let body = &after[body_start..];
            let end = body.find(fence).unwrap_or(body.len());
            return Some(&body[..end]);
        }
    }
    None
}

fn join<'s>(parts: impl Iterator<Item = &'s str>) -> String {
    let mut out = String::new();
    for (i, p) in parts.enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fenced_block;

    #[test]
    fn fenced_blocks() {
        assert_eq!(
            fenced_block("Here:\n```json\n{\"a\": 1}\n```\nbye"),
            Some("{\"a\": 1}\n")
        );
        assert_eq!(fenced_block("~~~\n[1]\n~~~"), Some("[1]\n"));
        assert_eq!(fenced_block("```\nunclosed"), Some("unclosed"));
        assert_eq!(fenced_block("no code"), None);
    }

    #[test]
    fn json_in_prose() {
        use super::{ReplyJson, read_json};
        let embedded = |t: &str| read_json(t, ReplyJson::Embedded);
        assert_eq!(
            embedded(r#"Use {name} here: {"a": [1, 2]} and more"#).unwrap(),
            serde_json::json!({"a": [1, 2]})
        );
        assert_eq!(
            embedded("list: [1, 2] then {\"a\": 1}").unwrap(),
            serde_json::json!([1, 2])
        );
        assert_eq!(
            embedded("no json here").unwrap_err(),
            "the reply has no JSON object or array"
        );
        let lenient =
            |t: &str, fenced, embedded| read_json(t, ReplyJson::Lenient { fenced, embedded });
        // Objects first, as PromptKit extracts.
        assert_eq!(
            lenient("list: [1, 2] then {\"a\": 1}", false, true).unwrap(),
            serde_json::json!({"a": 1})
        );
        // Not closed: the array next.
        assert_eq!(
            lenient("{ open [3]", false, true).unwrap(),
            serde_json::json!([3])
        );
        // Closed but not JSON: invalid, no search further.
        assert!(lenient("{bad} {\"a\": 1}", false, true).is_err());
        assert_eq!(
            lenient("Here:\n```json\n{\"a\": 2}\n```", true, false).unwrap(),
            serde_json::json!({"a": 2})
        );
        // No fence: the whole text.
        assert_eq!(lenient("[7]", true, false).unwrap(), serde_json::json!([7]));
    }
}
