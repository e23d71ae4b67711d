//! Checks on guardrails (validators).

use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Outcome;
use crate::evaluate::context::EvalContext;

/// A check on guardrails (validators): whether one — or any — fired. Build it with
/// [`guardrail_triggered`], [`guardrail_not_triggered`], [`any_guardrail_triggered`] or
/// [`no_guardrail_triggered`].
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Guardrail, Reply, Transcript, Turn};
/// let reply = Reply::text("").guardrail(Guardrail::passed("banned_words")).guardrail(Guardrail::triggered("max_length"));
/// let t = Transcript::new(vec![Turn::new(0, "tell me everything", reply, 1)]);
/// let v = evaluate(&t, &[
///     guardrail_triggered("max_length").into_expectation(),
///     guardrail_triggered("banned_words").into_expectation(),
///     no_guardrail_triggered().into_expectation(),
/// ]);
/// assert_eq!(v[0].status, Status::Pass);
/// assert_eq!(v[1].reason, "guardrail `banned_words` did not trigger");
/// assert_eq!(v[2].reason, "guardrail `max_length` triggered");
/// ```
///
/// "Not triggered" needs the guardrail to have run: with no result recorded for it (for
/// [`no_guardrail_triggered`], for any guardrail), the check is *not measured*, an error
/// verdict, unless [`GuardrailCheck::or_not_run`] says that not running is fine.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello"), 1)]);
/// let v = evaluate(&t, &[
///     guardrail_not_triggered("pii").into_expectation(),
///     guardrail_not_triggered("pii").or_not_run().into_expectation(),
/// ]);
/// assert_eq!(v[0].reason, "not measured: guardrail `pii` did not run (no result for it was recorded)");
/// assert_eq!(v[1].status, Status::Pass);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuardrailCheck {
    /// The guardrail's name; `None` for any guardrail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    guardrail: Option<String>,
    /// Whether it must have fired.
    expected: bool,
    /// A guardrail that did not run counts as not triggered (PromptKit).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    or_not_run: bool,
}

/// The guardrail `name` fired.
///
/// See [`GuardrailCheck`].
pub fn guardrail_triggered(name: impl Into<String>) -> GuardrailCheck {
    GuardrailCheck {
        guardrail: Some(name.into()),
        expected: true,
        or_not_run: false,
    }
}

/// The guardrail `name` did not fire.
///
/// See [`GuardrailCheck`].
pub fn guardrail_not_triggered(name: impl Into<String>) -> GuardrailCheck {
    GuardrailCheck {
        guardrail: Some(name.into()),
        expected: false,
        or_not_run: false,
    }
}

/// Some guardrail fired.
///
/// See [`GuardrailCheck`].
pub fn any_guardrail_triggered() -> GuardrailCheck {
    GuardrailCheck {
        guardrail: None,
        expected: true,
        or_not_run: false,
    }
}

/// No guardrail fired.
///
/// See [`GuardrailCheck`].
pub fn no_guardrail_triggered() -> GuardrailCheck {
    GuardrailCheck {
        guardrail: None,
        expected: false,
        or_not_run: false,
    }
}

impl GuardrailCheck {
    /// One line describing the check.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(no_guardrail_triggered().describe(), "no guardrail triggered");
    /// ```
    pub fn describe(&self) -> String {
        match (&self.guardrail, self.expected) {
            (Some(g), true) => format!("guardrail `{g}` triggered"),
            (Some(g), false) => format!("guardrail `{g}` not triggered"),
            (None, true) => "some guardrail triggered".to_owned(),
            (None, false) => "no guardrail triggered".to_owned(),
        }
    }

    /// For a "not triggered" check: a guardrail that did not run (no result recorded for it)
    /// passes too, instead of being *not measured* (PromptKit's rule, where an absent
    /// validation is not a trigger).
    ///
    /// See [`GuardrailCheck`].
    pub fn or_not_run(mut self) -> Self {
        self.or_not_run = true;
        self
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        if self.guardrail.as_deref() == Some("") {
            return Outcome::error("compared nothing: the guardrail name is empty");
        }
        let results = || cx.turns().iter().flat_map(|t| &t.reply.guardrails);
        if !self.expected && !self.or_not_run {
            let ran = results().any(|g| self.guardrail.as_ref().is_none_or(|n| *n == g.name));
            if !ran {
                return Outcome::error(match &self.guardrail {
                    Some(g) => format!(
                        "not measured: guardrail `{g}` did not run (no result for it was recorded)"
                    ),
                    None => "not measured: no guardrail ran (no guardrail result was recorded)"
                        .to_owned(),
                });
            }
        }
        let fired: Vec<&str> = results()
            .filter(|g| g.triggered && self.guardrail.as_ref().is_none_or(|n| *n == g.name))
            .map(|g| g.name.as_str())
            .collect();
        let triggered = !fired.is_empty();
        if triggered == self.expected {
            return Outcome::passed();
        }
        let details = json!({"expected_triggered": self.expected, "actually_triggered": triggered, "guardrail": self.guardrail});
        let reason = match (&self.guardrail, self.expected) {
            (Some(g), true) => format!("guardrail `{g}` did not trigger"),
            (Some(g), false) => format!("guardrail `{g}` triggered"),
            (None, true) => "no guardrail triggered".to_owned(),
            (None, false) => format!("guardrail `{}` triggered", fired.join("`, `")),
        };
        Outcome::fail(reason).actual(details)
    }
}

impl super::CheckRules for GuardrailCheck {
    const KIND: Kind = Kind::new(
        "guardrail",
        "guardrails triggered, or not",
    )
    .words(&[
        Word::new("guardrail_triggered", Arg::Text),
        Word::new("guardrail_not_triggered", Arg::Text),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![
            guardrail_triggered("g").into_expectation(),
            guardrail_not_triggered("g").into_expectation(),
            any_guardrail_triggered().into_expectation(),
        ]
    }

    fn reads(&self) -> &'static [Part] {
        &[]
    }

    /// Whether a pass rests on a guardrail not firing.
    fn claims_absence(&self) -> bool {
        !self.expected
    }
}
