//! Checks written as Rust closures.

use agent_test_vocabulary::{Arg, Kind, Word};
use crate::model::Part;
use std::fmt;
use std::sync::Arc;

use serde::{Serialize, Serializer};

use super::{IntoOutcome, Outcome};
use crate::evaluate::context::EvalContext;
use crate::util::text::panic_message;

type CheckFn = dyn Fn(&EvalContext<'_>) -> Outcome + Send + Sync;

/// A check written as a closure over the [`EvalContext`]. Build it with [`check`].
///
/// Custom checks run like any other: in a turn they see that turn, after the turns the whole
/// conversation. They cannot be loaded from data files (they serialise as their label only).
pub struct CustomCheck {
    label: String,
    f: Arc<CheckFn>,
}

/// A custom check: `label` names it in reports; the closure returns `bool`,
/// `Result<(), impl Display>` (the error is the failure reason) or an
/// [`Outcome`].
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::evaluate;
/// use agent_test::check::Status;
/// use agent_test::model::{Reply, Transcript, Turn};
///
/// let t = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello there, dear friend"), 1)]);
/// let brief = check("at most 3 words", |cx| {
///     let n = cx.reply().split_whitespace().count();
///     if n <= 3 { Ok(()) } else { Err(format!("reply has {n} words")) }
/// });
/// let v = evaluate(&t, &[brief.into_expectation()]);
/// assert_eq!(v[0].status, Status::Fail);
/// assert_eq!(v[0].reason, "reply has 4 words");
/// ```
pub fn check<R, F>(label: impl Into<String>, f: F) -> CustomCheck
where
    R: IntoOutcome,
    F: Fn(&EvalContext<'_>) -> R + Send + Sync + 'static,
{
    let label = label.into();
    let shown = label.clone();
    CustomCheck {
        label,
        f: Arc::new(move |cx| f(cx).into_outcome(&shown)),
    }
}

impl CustomCheck {
    /// The check's label.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// assert_eq!(check("short", |_| true).describe(), "short");
    /// ```
    pub fn describe(&self) -> String {
        self.label.clone()
    }

    pub(crate) fn evaluate(&self, cx: &EvalContext<'_>) -> Outcome {
        // A panicking closure is a bug in the test, but it must not hide the other verdicts.
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.f)(cx))) {
            Ok(outcome) => outcome,
            Err(panic) => {
                Outcome::error(format!("custom check panicked: {}", panic_message(&panic)))
            }
        }
    }
}

impl Clone for CustomCheck {
    fn clone(&self) -> Self {
        CustomCheck {
            label: self.label.clone(),
            f: Arc::clone(&self.f),
        }
    }
}

impl fmt::Debug for CustomCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomCheck")
            .field("label", &self.label)
            .finish()
    }
}

impl PartialEq for CustomCheck {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.f, &other.f)
    }
}

impl Serialize for CustomCheck {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("CustomCheck", 1)?;
        st.serialize_field("label", &self.label)?;
        st.end()
    }
}

/// Never read: a closure has no data form (`CheckRules::DATA_FORM` is false, so a `"custom"`
/// check in data is an unknown kind before this is reached).
impl<'de> serde::Deserialize<'de> for CustomCheck {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(serde::de::Error::custom(
            "a custom check is Rust code (`check(..)`): it has no data form",
        ))
    }
}

impl super::CheckRules for CustomCheck {
    const DATA_FORM: bool = false;

    const KIND: Kind = Kind::new(
        "custom",
        "a Rust closure over the transcript (no data form)",
    )
    .words(&[
        Word::new("check", Arg::Closure),
    ]);

    #[cfg(any(test, feature = "samples"))]
    fn samples() -> Vec<super::Expectation> {
        use crate::check::*;
        vec![check("always true", |_cx| true).into_expectation()]
    }

    /// A closure's verdict on calls nobody saw is unknown either way.
    fn unseen_calls(&self) -> super::Unseen {
        super::Unseen::NEITHER
    }

    /// A closure may read anything.
    fn reads(&self) -> &'static [Part] {
        &[
            Part::Calls,
            Part::Arguments,
            Part::Results,
            Part::Outcomes,
            Part::ReplyText,
            Part::Usage,
        ]
    }
}
