//! Judge checks: qualities a model grades (semantic checks).

use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::text::TextSource;
use super::Outcome;
use crate::evaluate::context::EvalContext;
use crate::model::judgement::DEFAULT_THRESHOLD;
use crate::model::judgement::{JudgeItem, JudgeKind};

/// A quality graded by the judge: the reply (or the transcript, or a node's output) is scored
/// from 0 to 1 against the criteria, and the check passes iff the score reaches the threshold
/// (0.8 by default). Every judge check of a run goes to the judge in one request; see
/// `Judge` for configuration, caching and replay.
///
/// In a turn, the check grades that turn's reply; after the turns, the final reply — or the
/// whole conversation with [`.on_transcript()`](JudgeCheck::on_transcript). The judge also
/// sees the user's last message in scope (unless [`.without_prompt()`](JudgeCheck::without_prompt)),
/// and, when asked, the tools called and their results.
///
/// ```
/// use agent_test::prelude::*;
/// let polite = judge("apologises for the double charge and explains the refund timeline")
///     .threshold(0.85)
///     .must_not(["promise a specific refund date"]);
/// let grounded = judge("every amount and date is supported by the tool results").hallucination();
/// assert_eq!(polite.describe(), r#"judge "apologises for the double charge and explains the refund timeline" (score ≥ 0.85)"#);
/// # let _ = grounded;
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeCheck {
    criteria: String,
    #[serde(default = "default_threshold")]
    threshold: f64,
    #[serde(default, skip_serializing_if = "is_quality")]
    kind: JudgeKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    negative_constraints: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    expected_response: Option<String>,
    #[serde(default = "reply_source", skip_serializing_if = "is_reply")]
    source: TextSource,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    include_prompt: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    include_tool_sequence: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    include_tool_results: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    include_tool_inputs: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    graded_as: Option<String>,
}

/// What [`expected_response`] asks the judge.
const SAME_AS_REFERENCE: &str = "conveys the same facts and outcome as the expected response";

fn default_threshold() -> f64 {
    DEFAULT_THRESHOLD
}
fn is_quality(k: &JudgeKind) -> bool {
    *k == JudgeKind::Quality
}
fn reply_source() -> TextSource {
    TextSource::Reply
}
fn is_reply(s: &TextSource) -> bool {
    *s == TextSource::Reply
}
fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}

/// A judge check: the reply in scope must meet `criteria` (Mibo's semantic `criteria`,
/// MCPLab's agent check `prompt`, Lamdis's `rubric`).
///
/// See [`JudgeCheck`].
pub fn judge(criteria: impl Into<String>) -> JudgeCheck {
    JudgeCheck {
        criteria: criteria.into(),
        threshold: default_threshold(),
        kind: JudgeKind::Quality,
        negative_constraints: Vec::new(),
        expected_response: None,
        source: TextSource::Reply,
        include_prompt: true,
        include_tool_sequence: false,
        include_tool_results: false,
        include_tool_inputs: false,
        graded_as: None,
    }
}

/// The reply in scope must convey what a reference answer does — the same facts and outcome,
/// in any wording (MorganaBench's `expected_response`). A judge check.
///
/// ```
/// use agent_test::prelude::*;
/// let c = expected_response("Your refund of €42.50 was issued and arrives in 5-7 days.");
/// assert!(c.describe().starts_with("judge: conveys the expected response"));
/// ```
pub fn expected_response(reference: impl Into<String>) -> JudgeCheck {
    let mut c = judge(SAME_AS_REFERENCE);
    c.expected_response = Some(reference.into());
    c
}

impl JudgeCheck {
    /// The score needed to pass, from 0 to 1 (default 0.8). A literal outside 0..=1 is a
    /// compile error in `agent_test!`, an error verdict otherwise.
    ///
    /// See the type's example.
    pub fn threshold(mut self, threshold: f64) -> Self {
        self.threshold = threshold;
        self
    }

    /// Grade whether every claim is supported by the conversation and the tool results
    /// (Mibo's `hallucination_check`); the tool results are always shown to the judge.
    ///
    /// See the type's example.
    pub fn hallucination(mut self) -> Self {
        self.kind = JudgeKind::Hallucination;
        self.include_tool_results = true;
        self
    }

    /// Things the text must not do; doing any scores 0 (Mibo's `negative_constraints`).
    ///
    /// See the type's example.
    pub fn must_not<S: Into<String>>(mut self, constraints: impl IntoIterator<Item = S>) -> Self {
        self.negative_constraints
            .extend(constraints.into_iter().map(Into::into));
        self
    }

    /// Also require agreement with a reference answer (see [`expected_response`]).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = judge("friendly").expected_response("The booking BK-1 is confirmed.");
    /// # let _ = c;
    /// ```
    pub fn expected_response(mut self, reference: impl Into<String>) -> Self {
        self.expected_response = Some(reference.into());
        self
    }

    /// Grade the whole conversation in scope, user messages included (Lamdis's
    /// `scope: transcript`), instead of the last reply.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = judge("the agent never asks for the same information twice").on_transcript();
    /// # let _ = c;
    /// ```
    pub fn on_transcript(mut self) -> Self {
        self.source = TextSource::Conversation;
        self
    }

    /// Grade the output of the last workflow node whose name contains `node`, at a dot path
    /// (`""` for all of it) — Mibo's `target_node` and `output_key`. A node that did not run
    /// fails the check without asking the judge.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = judge("a faithful two-sentence summary").on_node("Summarizer", "summary");
    /// # let _ = c;
    /// ```
    pub fn on_node(mut self, node: impl Into<String>, output_key: impl Into<String>) -> Self {
        self.source = TextSource::NodeOutput {
            node: node.into(),
            path: output_key.into(),
        };
        self
    }

    /// Show the judge the names of the tools called in scope, in order (MCPLab's
    /// `include_tool_sequence`).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = judge("looked the order up before refunding it").with_tool_sequence();
    /// # let _ = c;
    /// ```
    pub fn with_tool_sequence(mut self) -> Self {
        self.include_tool_sequence = true;
        self
    }

    /// Show the judge the tool calls in scope with their arguments and results.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = judge("quotes the order total correctly").with_tool_results();
    /// # let _ = c;
    /// ```
    pub fn with_tool_results(mut self) -> Self {
        self.include_tool_results = true;
        self
    }

    /// Show the judge the tool calls in scope with their arguments, not their results
    /// (MCPLab's `include_tool_inputs`).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = judge("searched for the city the user named").with_tool_inputs();
    /// # let _ = c;
    /// ```
    pub fn with_tool_inputs(mut self) -> Self {
        self.include_tool_inputs = true;
        self
    }

    /// Grade this check on its own, as the check `name`: two judge checks with the same
    /// criteria on the same material are otherwise one question to the judge (one grade for
    /// both); with different names they are two (MCPLab grades each labelled agent assertion).
    /// They still go in the run's one request.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// let a = judge("answers the question").graded_as("direct");
    /// let b = judge("answers the question").graded_as("complete");
    /// assert_ne!(a, b);
    /// ```
    pub fn graded_as(mut self, name: impl Into<String>) -> Self {
        self.graded_as = Some(name.into());
        self
    }

    /// Do not show the judge the user's message (MCPLab's `include_prompt: false`).
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// let c = judge("is written in French").without_prompt();
    /// # let _ = c;
    /// ```
    pub fn without_prompt(mut self) -> Self {
        self.include_prompt = false;
        self
    }

    /// One line describing the check.
    ///
    /// See the type's example.
    pub fn describe(&self) -> String {
        let what = match (&self.expected_response, self.kind) {
            (Some(_), _) if self.criteria == SAME_AS_REFERENCE => {
                "judge: conveys the expected response".to_owned()
            }
            (_, JudgeKind::Hallucination) => format!("judge (hallucination) {:?}", self.criteria),
            _ => format!("judge {:?}", self.criteria),
        };
        let on = match &self.source {
            TextSource::Reply => String::new(),
            other => format!(" on {other}"),
        };
        format!("{what}{on} (score ≥ {})", self.threshold)
    }

    /// What the judge is asked for this check in this scope, or why it cannot be asked.
    /// The score a pass needs.
    #[doc(hidden)]
    pub fn threshold_of(&self) -> f64 {
        self.threshold
    }

    #[doc(hidden)]
    pub fn item(&self, cx: &EvalContext<'_>) -> Result<JudgeItem, Box<Outcome>> {
        if cx.turns().is_empty() {
            return Err(Box::new(Outcome::error("no turn ran")));
        }
        if self.criteria.trim().is_empty() {
            return Err(Box::new(Outcome::error(
                "compared nothing: the judge has no criteria",
            )));
        }
        if self.threshold <= 0.0 {
            return Err(Box::new(Outcome::error(
                "compared nothing: a threshold of 0 passes every score",
            )));
        }
        if self.source == TextSource::Reply
            && let Some(e) = cx.failed_reply()
        {
            return Err(Box::new(Outcome::error(e)));
        }
        if self
            .expected_response
            .as_deref()
            .is_some_and(|r| r.trim().is_empty())
        {
            return Err(Box::new(Outcome::error(
                "compared nothing: the expected response is empty",
            )));
        }
        let text = self
            .source
            .read(cx)
            .map_err(|e| Box::new(Outcome::fail(e)))?;
        let mut material = Map::new();
        if let Some(name) = &self.graded_as {
            material.insert("check".into(), Value::String(name.clone()));
        }
        material.insert("text".into(), Value::String(text.into_owned()));
        if self.include_prompt
            && self.source != TextSource::Conversation
            && let Some(turn) = cx.last_turn()
        {
            material.insert("user_message".into(), Value::String(turn.input.clone()));
        }
        if self.include_tool_sequence {
            let names: Vec<&str> = cx.tool_calls().iter().map(|c| c.name.as_str()).collect();
            material.insert("tool_sequence".into(), json!(names));
        }
        if self.include_tool_inputs {
            let inputs: Vec<Value> = cx
                .tool_calls()
                .iter()
                .map(|c| json!({"tool": c.name, "arguments": c.arguments}))
                .collect();
            material.insert("tool_inputs".into(), Value::Array(inputs));
        }
        if self.include_tool_results {
            let calls: Vec<Value> = cx
                .tool_calls()
                .iter()
                .map(|c| {
                    json!({"name": c.name, "arguments": c.arguments, "result": c.result, "error": c.error})
                })
                .collect();
            material.insert("tool_calls".into(), Value::Array(calls));
        }
        Ok(JudgeItem {
            kind: self.kind,
            criteria: self.criteria.clone(),
            negative_constraints: self.negative_constraints.clone(),
            expected_response: self.expected_response.clone(),
            material: Value::Object(material),
        })
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if !(0.0..=1.0).contains(&self.threshold) {
            return Outcome::error(format!("threshold {} is outside 0..=1", self.threshold));
        }
        let item = match self.item(cx) {
            Ok(item) => item,
            Err(outcome) => return *outcome,
        };
        let judgement = match cx.judgement(&item) {
            Ok(j) => j,
            Err(reason) => return Outcome::error(format!("not graded: {reason}")),
        };
        let expected = json!({"criteria": self.criteria, "threshold": self.threshold});
        let actual = json!({"score": judgement.score, "judge_pass": judgement.pass, "reasoning": judgement.reasoning});
        let reasoning = if judgement.reasoning.is_empty() {
            String::new()
        } else {
            format!(": {}", judgement.reasoning)
        };
        let outcome = if judgement.score >= self.threshold {
            Outcome::pass(format!(
                "score {} ≥ {}{reasoning}",
                judgement.score, self.threshold
            ))
        } else {
            Outcome::fail(format!(
                "score {} < {}{reasoning}",
                judgement.score, self.threshold
            ))
        };
        outcome.expected(expected).actual(actual)
    }
}

impl super::CheckRules for JudgeCheck {
    const KIND: Kind = Kind::new(
        "judge",
        "a quality graded by the judge model, against criteria or an expected response",
    )
    .words(&[
        Word::new("judge", Arg::Text),
        Word::new("must_not", Arg::Text),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            judge("polite")
                .threshold(0.5)
                .hallucination()
                .must_not(["rude"])
                .on_node("Agent", "output.text")
                .with_tool_sequence()
                .with_tool_results()
                .with_tool_inputs()
                .graded_as("g")
                .without_prompt()
                .into_expectation(),
            judge("on the transcript")
                .on_transcript()
                .expected_response("x")
                .into_expectation(),
            expected_response("Paris").into_expectation(),
        ]
    }

    /// The judge might have answered otherwise had it been shown calls nobody saw.
    fn unseen_calls(&self) -> super::Unseen {
        super::Unseen::NEITHER
    }

    /// The judge is shown the transcript: the reply and the calls.
    fn reads(&self) -> &'static [Part] {
        &[
            Part::Calls,
            Part::Arguments,
            Part::Results,
            Part::Outcomes,
            Part::ReplyText,
        ]
    }

    /// Why no score can satisfy the check, if none can: a threshold outside 0..=1.
    fn problem(&self) -> Option<String> {
        (!(0.0..=1.0).contains(&self.threshold)).then(|| {
            // As JSON writes it (`1e300`, not 301 digits); NaN and infinities as Rust does.
            let shown = serde_json::Number::from_f64(self.threshold)
                .map_or_else(|| self.threshold.to_string(), |n| n.to_string());
            format!(
                "threshold {shown} is outside 0..=1: a judge score goes from 0 (not at all) to 1 (fully)"
            )
        })
    }
}
