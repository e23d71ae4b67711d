//! Reports: the result of a run, rendered as text for the test's panic message and written as
//! JSON under `target/agent-test/`.

mod text;
mod write;

pub use crate::util::diff::{json_diff, text_diff};
pub use crate::util::dirs::{REPORT_DIR_ENV, report_root};
pub use crate::util::shared_strings::{MIN_SHARED, SAME_AS, expand_shared, share_repeats};
pub(crate) use write::write_json;

pub use crate::model::report::{CheckTally, RepeatSummary, Report, Summary};

impl Report {
    /// Fails the test with the full text report when the run did not pass; otherwise prints
    /// the report to standard output (shown by `cargo test -- --nocapture`). Set
    /// `AGENT_TEST_REPORT=summary` to print one line per passing scenario, or `quiet` for none.
    ///
    /// ```should_panic
    /// # use agent_test::prelude::*;
    /// # use agent_test::agent::agent_fn;
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let mut run = ScenarioRun::new(Suite::new().agent(agent_fn(|_r| async { "Hello" })), "greeting");
    /// run.user("hi").await;
    /// run.expect(reply().contains("goodbye"));
    /// run.report().await.assert_passed(); // panics with the report
    /// # });
    /// ```
    #[track_caller]
    #[allow(
        clippy::panic,
        reason = "failing the calling test with the report is what `assert_passed` is for"
    )]
    pub fn assert_passed(&self) {
        if !self.passed {
            panic!("{self}");
        }
        match std::env::var("AGENT_TEST_REPORT").as_deref() {
            Ok("quiet") => {}
            Ok("summary") => println!("{}", self.headline()),
            _ => print!("{self}"),
        }
    }
}
