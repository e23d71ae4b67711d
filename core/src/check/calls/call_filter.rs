//! Which calls a tool check counts, by their outcome.

use serde::{Deserialize, Serialize};

use crate::model::ToolErrorKind;

/// Which calls a tool check counts, by outcome.
///
/// ```
/// use agent_test::check::CallFilter;
/// assert_eq!(CallFilter::default(), CallFilter::All);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", remote = "Self")]
#[non_exhaustive]
pub enum CallFilter {
    /// Every call, whether it returned an error or not.
    #[default]
    All,
    /// Only calls that succeeded.
    Succeeded,
    /// Only calls that returned an error.
    Failed,
    /// Only calls that failed with this kind of error (validation or execution).
    FailedWith(ToolErrorKind),
    /// Calls that succeeded or whose arguments were refused in validation: only calls whose
    /// tool ran and failed (or failed for a reason nobody reported) are left out. PromptKit's
    /// `ignore_validation`.
    SucceededOrInvalid,
}

crate::util::json::one_key_enum!(
    CallFilter,
    [
        "all",
        "succeeded",
        "failed",
        "failed_with",
        "succeeded_or_invalid"
    ]
);

impl CallFilter {
    /// Whether a call with this outcome counts.
    ///
    /// ```
    /// use agent_test::check::CallFilter;
    /// use agent_test::model::{Call, ToolErrorKind};
    /// let refused = Call::tool("t", serde_json::json!({})).failed_with(ToolErrorKind::Validation, serde_json::json!("bad"));
    /// assert!(CallFilter::SucceededOrInvalid.admits(&refused));
    /// assert!(!CallFilter::Succeeded.admits(&refused));
    /// assert!(CallFilter::FailedWith(ToolErrorKind::Validation).admits(&refused));
    /// ```
    pub fn admits(self, call: &crate::model::Call) -> bool {
        match self {
            CallFilter::All => true,
            CallFilter::Succeeded => !call.error,
            CallFilter::Failed => call.error,
            CallFilter::FailedWith(kind) => call.error && call.error_kind == Some(kind),
            CallFilter::SucceededOrInvalid => {
                !call.error || call.error_kind == Some(ToolErrorKind::Validation)
            }
        }
    }

    /// ` (successful calls only)`, or nothing for every call.
    pub(crate) fn suffix(self) -> String {
        match self {
            CallFilter::All => String::new(),
            CallFilter::Succeeded => " (successful calls only)".to_owned(),
            CallFilter::Failed => " (failed calls only)".to_owned(),
            CallFilter::FailedWith(kind) => format!(" (calls with {} errors only)", kind.name()),
            CallFilter::SucceededOrInvalid => {
                " (successful calls and validation errors only)".to_owned()
            }
        }
    }
}
