//! One case of a test file (agent-test's own scenario form or a seed format), as a test: what
//! `agent_test!`'s `files "..."` expands into.

use std::sync::OnceLock;

use super::RunScenario;
use super::Suite;
use crate::report::Report;
use agent_test_core::model::ScenarioInfo;
use agent_test_core::util::input::{LoadError, LoadErrorKind};
use agent_test_readers::formats::ImportedCase;

/// A test file's text, read into cases once however many of its cases run: the static
/// one `files "..."` entry of `agent_test!` generates per file.
///
/// ```
/// use agent_test::__private::FileCases;
/// use agent_test::load::LoadErrorKind;
/// static CASES: FileCases = FileCases::new(r#"{"scenario": "ping", "input_utterance": "ping"}"#, "cases/ping.json");
/// assert_eq!(CASES.get(0).unwrap().scenario.name, "ping");
/// let err = CASES.get(1).unwrap_err();
/// assert_eq!(err.kind, LoadErrorKind::NotFound);
/// assert_eq!(err.to_string(), "cases/ping.json: has 1 case, no case 2");
/// ```
pub struct FileCases {
    text: &'static str,
    pub(super) file: &'static str,
    cases: OnceLock<Result<Vec<ImportedCase>, LoadError>>,
}

impl FileCases {
    /// The file `file` (for messages and default names), whose text is `text`.
    pub const fn new(text: &'static str, file: &'static str) -> Self {
        FileCases {
            text,
            file,
            cases: OnceLock::new(),
        }
    }

    /// Case `index`, or why the file cannot give it: the file's [`LoadError`] (the same for
    /// every case), or one of [kind](LoadErrorKind) `NotFound` for a case the file does not
    /// hold.
    ///
    /// ```
    /// use agent_test::__private::FileCases;
    /// use agent_test::load::LoadErrorKind;
    /// static BROKEN: FileCases = FileCases::new(r#"{"scenario": "#, "cases/broken.json");
    /// let err = BROKEN.get(0).unwrap_err();
    /// assert_eq!(err.kind, LoadErrorKind::Syntax);
    /// assert_eq!(err.path, "line 1, column 13");
    /// ```
    pub fn get(&self, index: usize) -> Result<&ImportedCase, LoadError> {
        let cases = self
            .cases
            .get_or_init(|| agent_test_readers::load::cases_from_text(self.text, self.file, None))
            .as_ref()
            .map_err(Clone::clone)?;
        cases.get(index).ok_or_else(|| LoadError {
            kind: LoadErrorKind::NotFound,
            file: self.file.into(),
            path: String::new(),
            message: format!(
                "has {} case{}, no case {}",
                cases.len(),
                if cases.len() == 1 { "" } else { "s" },
                index.saturating_add(1)
            ),
        })
    }
}

/// Runs a case of a seed-format file: evaluates the run it carries (MorganaBench `outputs`),
/// grading judge checks with the suite's judge, or else runs the scenario against the suite's
/// agent.
///
/// ```
/// use agent_test::{__private::FileCases, run_file_case};
/// use agent_test::{agent::agent_fn, Suite};
/// static GREETS: FileCases = FileCases::new(r#"{"scenario": "greets", "input_utterance": "hi",
///   "assertions": {"procedural": [{"target": "response_regex", "pattern": "^Hello"}]}}"#, "cases/greets.json");
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let suite = Suite::new().agent(agent_fn(|_r| async { "Hello!" }));
/// let report = run_file_case(suite, GREETS.get(0).unwrap()).await;
/// assert!(report.passed(), "{report}");
/// # });
/// ```
pub async fn run_file_case(suite: Suite, case: &ImportedCase) -> Report {
    run_case_as(suite, case, case.scenario.info()).await
}

/// [`run_file_case`] with the scenario placed as `info` says (its test's module and file,
/// where its snapshots are kept).
pub(super) async fn run_case_as(suite: Suite, case: &ImportedCase, info: ScenarioInfo) -> Report {
    match &case.recording {
        // Evaluated as a live run of the suite is: priced by its table, with its judge.
        Some(recording) => {
            case.scenario
                .evaluator()
                .priced(suite.prices.clone())
                .located(info)
                .evaluate_judged(recording.transcript.clone(), suite.judge_or_env().as_ref())
                .await
        }
        None => case.scenario.run(suite).await,
    }
}
