//! Semantic matchers: values a judge model compares with a description (MorganaBench's
//! `free_text` and `date_time`).

use jiff::Zoned;
use serde_json::{Value, json};

use super::{Matcher, Mismatch};
use crate::compare::expression::Env;
use crate::model::judgement::DEFAULT_THRESHOLD;
use crate::model::judgement::{JudgeItem, JudgeKind};

/// A value whose meaning matches a description, as judged by the model: paraphrases and
/// spelling differences pass (`"Lisbon, Portugal"` for `"the capital of Portugal"`). Graded in
/// the run's one judge request; needs a judge.
///
/// ```
/// use agent_test::matcher::*;
/// assert_eq!(free_text("a polite request to reschedule").describe(), r#"(judged) means "a polite request to reschedule""#);
/// ```
pub fn free_text(description: impl Into<String>) -> Matcher {
    Matcher::FreeText {
        value: description.into(),
    }
}

/// A date or time that denotes what a description says, relative to the run's `user_time`
/// (`"the day after tomorrow at noon"`), as judged by the model: formats may differ. Graded in
/// the run's one judge request; needs a judge. For exact dates, prefer [`date`](super::date).
///
/// ```
/// use agent_test::matcher::*;
/// assert_eq!(date_time("next Monday at 9am").describe(), r#"(judged) a date/time meaning "next Monday at 9am""#);
/// ```
pub fn date_time(description: impl Into<String>) -> Matcher {
    Matcher::DateTime {
        value: description.into(),
    }
}

impl Matcher {
    /// The semantic matchers inside this one (itself included), in order.
    pub(crate) fn semantic_parts<'a>(&'a self, out: &mut Vec<&'a Matcher>) {
        match self {
            Matcher::FreeText { .. } | Matcher::DateTime { .. } => out.push(self),
            Matcher::Optional { inner } | Matcher::Not { inner } => inner.semantic_parts(out),
            Matcher::AllOf { matchers } | Matcher::AnyOf { matchers } => {
                for m in matchers {
                    m.semantic_parts(out);
                }
            }
            _ => {}
        }
    }

    /// What the judge is asked for a semantic matcher and an actual value.
    #[doc(hidden)]
    pub fn semantic_item(&self, actual: &Value, now: &Zoned) -> Option<JudgeItem> {
        let text = super::text(actual);
        let (criteria, material) = match self {
            Matcher::FreeText { value } => (
                format!("the value means the same as: {value}"),
                json!({"text": text}),
            ),
            Matcher::DateTime { value } => (
                format!(
                    "the date/time value denotes: {value} (relative to the user's current time)"
                ),
                json!({"text": text, "user_time": now.strftime("%Y-%m-%dT%H:%M %Z (%A)").to_string()}),
            ),
            _ => return None,
        };
        Some(JudgeItem::new(JudgeKind::Quality, criteria, material))
    }

    /// A semantic matcher's verdict on a value, from the judge's grades.
    pub(crate) fn check_semantic(
        &self,
        actual: Option<&Value>,
        env: &Env<'_>,
    ) -> Result<(), Mismatch> {
        let Some(a) = actual else {
            return Err(Mismatch::Fail(format!(
                "missing (expected {})",
                self.describe()
            )));
        };
        let item = self
            .semantic_item(a, env.now)
            .ok_or_else(|| Mismatch::Error("not a semantic matcher".into()))?;
        let judgements = env.judgements.ok_or_else(|| {
            Mismatch::Error(
                "not graded: semantic matchers are graded by the judge when a scenario runs (or \
                 with ScenarioEvaluator::evaluate_judged); this evaluation had no judge"
                    .into(),
            )
        })?;
        match judgements.get(&item) {
            Err(reason) => Err(Mismatch::Error(format!("not graded: {reason}"))),
            Ok(j) if j.score >= DEFAULT_THRESHOLD => Ok(()),
            Ok(j) => Err(Mismatch::Fail(format!(
                "expected {}, got {} (judge score {} < {DEFAULT_THRESHOLD}: {})",
                self.describe(),
                crate::util::text::shown(a),
                j.score,
                j.reasoning
            ))),
        }
    }
}
