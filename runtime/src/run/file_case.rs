//! One case of a seed-format test file, as a test: what `agent_test!`'s `files "..."` expands
//! into.

use super::Suite;
use crate::formats;
use crate::report::Report;

/// Runs case `index` of a seed-format file: evaluates the run it carries (MorganaBench
/// `outputs`), grading judge checks with the suite's judge, or else runs the scenario against
/// the suite's agent. `Err` says why the file could not be read.
///
/// ```
/// use agent_test_runtime::run_file_case;
/// use agent_test_runtime::{agent::agent_fn, Suite};
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let text = r#"{"scenario": "greets", "input_utterance": "hi",
///   "assertions": {"procedural": [{"target": "response_regex", "pattern": "^Hello"}]}}"#;
/// let suite = Suite::new().agent(agent_fn(|_r| async { "Hello!" }));
/// let report = run_file_case(suite, text, "cases/greets.json", 0).await.unwrap();
/// assert!(report.passed(), "{report}");
/// # });
/// ```
pub async fn run_file_case(
    suite: Suite,
    text: &str,
    file: &str,
    index: usize,
) -> Result<Report, String> {
    let mut cases = formats::from_text(text, file, None).map_err(|e| e.to_string())?;
    if index >= cases.len() {
        return Err(format!(
            "{file}: has {} case(s), no case {}",
            cases.len(),
            index + 1
        ));
    }
    let case = cases.swap_remove(index);
    Ok(match case.recording {
        Some(recording) => {
            let judge = suite.judge.clone().or_else(super::scenario_run::env_judge);
            case.scenario
                .evaluator()
                .evaluate_judged(recording.transcript, judge.as_ref())
                .await
        }
        None => case.scenario.run(suite).await,
    })
}

/// [`run_file_case`], then fails the test with the report unless it passed.
#[doc(hidden)]
pub async fn assert_file_case(suite: Suite, text: &str, file: &str, index: usize) {
    match run_file_case(suite, text, file, index).await {
        Ok(report) => report.assert_passed(),
        Err(e) => panic!("{e}"),
    }
}
