//! The seed systems' own file formats, loaded into the native model with the *format*
//! semantics (what each check means in its system), never by changing native defaults.
//!
//! So far: [MorganaBench](morganabench) examples (JSON or JSONL). Each loaded case is a
//! [`Scenario`](crate::model::Scenario) and, when the file carries the agent's outputs, the
//! [`RecordedRun`](crate::RecordedRun) to evaluate it on.

pub mod morganabench;

use crate::RecordedRun;
use crate::model::Scenario;

/// One case of a seed-format file: the scenario, and the run recorded with it, if any.
///
/// ```
/// use agent_test_runtime::formats::morganabench;
/// let cases = morganabench::from_text(r#"{"inputs": {"messages": [{"role": "user", "content": "hi"}]}, "expectations": {}}"#, "hi.json").unwrap();
/// assert_eq!(cases[0].scenario.name, "hi");
/// assert!(cases[0].recording.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedCase {
    /// The scenario, in the native model.
    pub scenario: Scenario,
    /// The recorded run the file holds for it (MorganaBench `outputs`), ready for passive
    /// evaluation.
    pub recording: Option<RecordedRun>,
}
