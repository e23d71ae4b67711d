//! Recorded runs: the JSON a run leaves behind, read back to replay or re-evaluate it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{ScenarioInfo, Transcript};

/// A recorded run: which scenario ran and everything needed to evaluate checks on it again —
/// the transcript, which carries the context variables and the `user_time` dates are
/// evaluated against.
///
/// Every run's JSON report (`target/agent-test/<module>/<scenario>.json`) is a recorded run
/// with verdicts added; both forms load. The plain form:
///
/// ```json
/// {
///   "scenario": {"name": "refund"},
///   "transcript": {
///     "context": {"USER_ID": 12345},
///     "user_time": "2026-11-23T09:30:00+00:00[UTC]",
///     "turns": [
///       {"index": 0, "input": "Refund ORD-9921", "latency_ms": 812,
///        "reply": {"text": "Done.", "calls": [{"name": "process_refund", "arguments": {"order_id": "ORD-9921"}}]}}
///     ]
///   }
/// }
/// ```
///
/// ```
/// let run = agent_test::load::run_from_text(r#"{"scenario": {"name": "x"}, "transcript": {"turns": []}}"#, "x.json", None).unwrap();
/// assert_eq!(run.scenario.name, "x");
/// ```
///
/// `load::run` reads one back (and traces alike).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedRun {
    /// The scenario that ran.
    pub scenario: ScenarioInfo,
    /// What happened.
    pub transcript: Transcript,
}

impl RecordedRun {
    /// Writes the run as pretty JSON, which `load::run` reads back.
    ///
    /// ```
    /// # use agent_test::{RecordedRun, ScenarioInfo, model::Transcript};
    /// let path = std::env::temp_dir().join("agent-test-doc-recording.json");
    /// let run = RecordedRun { scenario: ScenarioInfo::new("x"), transcript: Transcript::default() };
    /// run.save(&path).unwrap();
    /// assert_eq!(agent_test::load::run(&path, None).unwrap(), run);
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        let mut doc = serde_json::to_value(self).map_err(std::io::Error::other)?;
        crate::util::shared_strings::share_repeats(&mut doc);
        let bytes = serde_json::to_vec_pretty(&doc).map_err(std::io::Error::other)?;
        std::fs::write(path, bytes)
    }
}
