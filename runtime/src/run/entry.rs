//! The single entry point of the tests `agent_test!` generates.
//!
//! A generated test is one call: [`test_scenario`] for a scenario written in the macro,
//! [`test_file_case`] for a case of a `files "..."` test file. The test hands over data (the
//! scenario's name, description and place) and closures (the suite's settings, the scenario's
//! body); the tokio runtime, the repeat loop, the report and the verdict live here, compiled
//! once, instead of being generated and type-checked again in every test.

use std::future::Future;
use std::pin::Pin;

use super::{FileCases, Repeats, RuntimeFlavor, ScenarioRun, Suite};
use crate::report::Report;
use agent_test_core::model::ScenarioInfo;
use agent_test_core::scenario::Scenario;

/// What `agent_test!` knows of a scenario it turns into a test: its name, its doc comment and
/// where it is written, for reports.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct ScenarioSource {
    /// The scenario's name, which is also the test's.
    pub name: &'static str,
    /// Its doc comment (blank when it has none).
    pub description: &'static str,
    /// `module_path!()` of the test.
    pub module: &'static str,
    /// `file!()` of the scenario.
    pub file: &'static str,
    /// The line of the scenario's name.
    pub line: u32,
}

/// A scenario's body, written in `agent_test!`: its steps, checks and Rust statements, as an
/// async block driving one run. Called once per repeated run.
#[doc(hidden)]
pub type ScenarioBody<'a> =
    dyn for<'r> FnMut(&'r mut ScenarioRun) -> Pin<Box<dyn Future<Output = ()> + 'r>> + 'a;

/// A scenario of `agent_test!` as a test: runs `body` against a fresh `suite()` as many times
/// as the scenario's `repeat` says, on the tokio runtime `flavor` says (by default the
/// process's shared one, see [`RuntimeFlavor`]), writes the report and fails the test
/// unless it passed. The failure points at the
/// caller: the generated call carries the scenario name's span.
#[doc(hidden)]
#[track_caller]
pub fn test_scenario(
    source: &ScenarioSource,
    suite: fn() -> Suite,
    flavor: RuntimeFlavor,
    body: &mut ScenarioBody<'_>,
) {
    let info = ScenarioInfo::new(source.name)
        .described(source.description)
        .located(source.module, source.file, source.line);
    let suite = || shared_budget(source.module, suite());
    let report = block_on(flavor, repeated(&suite, info, Steps::Written(body)));
    report.assert_passed();
}

/// `suite` with its budget (`max_cost_usd = ..;`) shared by every test of the same
/// `agent_test!` block — its module — so that the block's scenarios spend one budget.
fn shared_budget(module: &'static str, mut suite: Suite) -> Suite {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Shared = Mutex<HashMap<(&'static str, u64), super::Budget>>;
    static BUDGETS: OnceLock<Shared> = OnceLock::new();
    if let Some(own) = suite.budget.take() {
        let mut budgets = BUDGETS
            .get_or_init(Shared::default)
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let key = (module, own.limit_usd().to_bits());
        suite.budget = Some(budgets.entry(key).or_insert(own).clone());
    }
    suite
}

/// Case `index` of `cases` as a test (what `files "..."` generates): evaluated on its
/// recording, or run against a fresh `suite()` as many times as the suite's `repeat` says; the
/// report is written as JSON under the test's module, and the test fails unless it passed.
#[doc(hidden)]
#[track_caller]
#[allow(
    clippy::panic,
    reason = "a generated test: a case its data file no longer holds fails that test"
)]
pub fn test_file_case(
    suite: fn() -> Suite,
    flavor: RuntimeFlavor,
    cases: &'static FileCases,
    index: usize,
    module: &'static str,
) {
    let case = match cases.get(index) {
        Ok(case) => case,
        Err(e) => panic!("{e}"),
    };
    // A case of a data file is located by its file and name: it has no line of Rust.
    let mut info = case.scenario.info();
    info.module = Some(module.to_owned());
    info.file = Some(cases.file.to_owned());
    let suite = || shared_budget(module, suite());
    let report = block_on(flavor, async {
        if case.recording.is_none() {
            return repeated(&suite, info, Steps::Data(&case.scenario)).await;
        }
        let suite = suite();
        let mut report = super::file_case::run_case_as(suite.clone(), case, info).await;
        crate::report::write_json(&mut report, suite.report_dir.as_ref());
        report
    });
    report.assert_passed();
}

/// What a run goes through: a body written in the macro, or a scenario read from a file.
enum Steps<'a, 'b> {
    Written(&'a mut ScenarioBody<'b>),
    Data(&'a Scenario),
}

/// Runs the scenario until its repeats are done; the report of them all.
async fn repeated(
    suite: &dyn Fn() -> Suite,
    info: ScenarioInfo,
    mut steps: Steps<'_, '_>,
) -> Report {
    let mut repeats = Repeats::new();
    loop {
        let mut run = ScenarioRun::with_info(suite(), info.clone().repeated(repeats.index()));
        match &mut steps {
            Steps::Written(body) => body(&mut run).await,
            Steps::Data(scenario) => run = super::scenario::drive(scenario, run).await,
        }
        if let Some(report) = repeats.record(run).await {
            return report;
        }
    }
}

/// Runs `future` to completion on the test's thread, on the runtime `flavor` says (by default
/// the process's shared one).
#[allow(
    clippy::panic,
    reason = "runs a generated test: without a runtime, failing that test is the only answer"
)]
fn block_on(flavor: RuntimeFlavor, future: impl Future<Output = Report>) -> Report {
    match flavor.block_on(future) {
        Ok(report) => report,
        Err(e) => panic!("agent-test: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::panic::Location;
    use std::sync::{Arc, Mutex};

    use super::{RuntimeFlavor, ScenarioSource, Suite, test_scenario};
    use agent_test_core::check::reply;

    const SOURCE: ScenarioSource = ScenarioSource {
        name: "entry_point",
        description: "",
        module: module_path!(),
        file: file!(),
        line: 1,
    };

    fn repeated_suite() -> Suite {
        Suite::new()
            .agent(agent_test_network::agent::agent_fn(|_r| async { "hello" }))
            .repeat(3)
    }

    #[test]
    fn the_body_runs_once_per_repeat() {
        let calls = Cell::new(0);
        test_scenario(
            &SOURCE,
            repeated_suite,
            RuntimeFlavor::default(),
            &mut |run| {
                calls.set(calls.get() + 1);
                Box::pin(async move {
                    run.user("hi").await;
                    run.expect(reply().contains("hello"));
                })
            },
        );
        assert_eq!(calls.get(), 3);
    }

    /// `#[track_caller]`: the panic of a failing scenario is located at the generated call,
    /// which carries the scenario name's span.
    #[test]
    fn a_failure_is_located_at_the_call() {
        let me = std::thread::current().id();
        let seen: Arc<Mutex<Option<String>>> = Arc::default();
        let previous = Arc::new(std::panic::take_hook());
        let (hook_seen, hook_previous) = (Arc::clone(&seen), Arc::clone(&previous));
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().id() == me {
                *hook_seen.lock().unwrap_or_else(|e| e.into_inner()) =
                    info.location().map(ToString::to_string);
            } else {
                hook_previous(info);
            }
        }));
        let mut call = None;
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // An empty scenario fails ("nothing to run").
            call = Some(Location::caller());
            test_scenario(&SOURCE, Suite::new, RuntimeFlavor::default(), &mut |_run| {
                Box::pin(async {})
            })
        }));
        std::panic::set_hook(Box::new(move |info| previous(info)));
        assert!(outcome.is_err(), "an empty scenario must fail");
        let at = seen.lock().unwrap_or_else(|e| e.into_inner()).clone();
        // The line after the one `Location::caller()` is on, at the call's column.
        let call = call.map(|l| format!("{}:{}:13", l.file(), l.line() + 1));
        assert_eq!(at, call);
    }

    #[test]
    fn the_tests_of_one_block_share_its_budget() {
        let budget = |module| {
            super::shared_budget(module, Suite::new().max_cost_usd(2.0))
                .budget
                .expect("a budget")
        };
        let (a, b) = (budget("suite_a"), budget("suite_a"));
        a.add(&agent_test_core::model::prices::Cost::Usd(1.5), "turn 1");
        assert_eq!(b.spent_usd(), Some(1.5), "one block, one budget");
        assert_eq!(
            budget("suite_b").spent_usd(),
            Some(0.0),
            "another block's own"
        );
    }
}
