//! What the judge is asked and what it answers: the data judge checks, semantic matchers
//! and the judge client share. Grading itself lives in `agent_test::judge`.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The score a judged check needs unless told otherwise (semantic matchers too).
pub(crate) const DEFAULT_THRESHOLD: f64 = 0.8;

/// What one judge check asks: the criteria and the material to grade, as sent to the model.
/// Its JSON (with the model id and repeat index) is the check's cache key.
///
/// ```
/// use agent_test::judge::{JudgeItem, JudgeKind};
/// let item = JudgeItem::new(JudgeKind::Quality, "is polite", serde_json::json!({"reply": "Hello!"}));
/// assert_eq!(item.criteria, "is polite");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JudgeItem {
    /// What kind of grading.
    #[serde(rename = "type")]
    pub kind: JudgeKind,
    /// What the material must satisfy.
    pub criteria: String,
    /// What it must not do; any violation scores 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub negative_constraints: Vec<String>,
    /// A reference answer the material must agree with (MorganaBench's expected response).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_response: Option<String>,
    /// What is graded: the reply (or transcript, or node output) and the context asked for.
    pub material: Value,
}

impl JudgeItem {
    /// An item with no constraints or reference answer.
    ///
    /// See the type's example.
    pub fn new(kind: JudgeKind, criteria: impl Into<String>, material: Value) -> Self {
        JudgeItem {
            kind,
            criteria: criteria.into(),
            negative_constraints: Vec::new(),
            expected_response: None,
            material,
        }
    }
}

/// The kind of grading (Mibo's semantic `type`).
///
/// ```
/// use agent_test::judge::JudgeKind;
/// assert_eq!(serde_json::to_value(JudgeKind::Hallucination).unwrap(), "hallucination_check");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum JudgeKind {
    /// How well the material meets the criteria.
    #[default]
    #[serde(rename = "quality_check")]
    Quality,
    /// Whether every claim is supported by the conversation and the tool results.
    #[serde(rename = "hallucination_check")]
    Hallucination,
}

/// A judge's grade for one check.
///
/// ```
/// use agent_test::judge::Judgement;
/// let j = Judgement { score: 0.9, pass: true, reasoning: "polite and complete".into() };
/// assert!(j.score >= 0.8);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// From 0 (not at all) to 1 (fully).
    pub score: f64,
    /// The judge's own call; the verdict uses the score and the check's threshold.
    pub pass: bool,
    /// Why.
    pub reasoning: String,
}

/// The judge's grades for one run — its judge checks and semantic matchers — made by the
/// runtime before the checks are evaluated and read by them. Opaque.
///
/// ```
/// # use agent_test::judge::Judgements;
/// fn takes(_: Option<&Judgements>) {}
/// takes(None);
/// ```
#[derive(Debug, Default)]
pub struct Judgements {
    /// Each semantic item's grade (by its key), or why it has none.
    #[doc(hidden)]
    pub grades: HashMap<String, Result<Judgement, String>>,
    /// Why nothing could be graded (no judge configured), if so.
    #[doc(hidden)]
    pub unavailable: Option<String>,
    /// The instant the semantic date matchers were graded against.
    #[doc(hidden)]
    pub now: Option<jiff::Zoned>,
    /// Problems of the judge's cache, for the report's notes.
    #[doc(hidden)]
    pub notes: Vec<String>,
}

impl Judgements {
    /// The instant semantic date matchers were graded against.
    ///
    /// See the type's example.
    pub fn now(&self) -> Option<&jiff::Zoned> {
        self.now.as_ref()
    }

    /// No judge: every judge check is an error with this reason.
    #[doc(hidden)]
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Judgements {
            grades: HashMap::new(),
            unavailable: Some(reason.into()),
            now: None,
            notes: Vec::new(),
        }
    }

    /// What the report should note: the judge's cache could not be written, or held invalid
    /// entries.
    #[doc(hidden)]
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The grade of an item, or why there is none.
    pub(crate) fn get(&self, item: &JudgeItem) -> Result<&Judgement, String> {
        if let Some(reason) = &self.unavailable {
            return Err(reason.clone());
        }
        match self.grades.get(&item_key(item)) {
            Some(Ok(j)) => Ok(j),
            Some(Err(e)) => Err(e.clone()),
            None => Err("the judge was not asked for this check".into()),
        }
    }
}

#[doc(hidden)]
pub fn item_key(item: &JudgeItem) -> String {
    serde_json::to_string(item).unwrap_or_default()
}
