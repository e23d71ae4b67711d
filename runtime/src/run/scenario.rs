//! Running a scenario given as data: its steps drive a [`ScenarioRun`], and its checks are
//! evaluated on the run or on a recording.

use serde_json::Value;

use super::bag::Bag;
use super::{Extraction, ScenarioEvaluator, ScenarioRun, Suite, simulated_user};
use crate::report::Report;
use agent_test_core::model::Transcript;
use agent_test_core::scenario::{Scenario, Step};
use agent_test_network::agent::custom_body;

/// Running and evaluating a [`Scenario`] given as data (a seed-format file's case, or one built
/// with `Scenario::new`). The prelude brings it in, so that `scenario.run(suite)` reads as a
/// method: the scenario's type is the core's, its running is the runtime's.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::Suite;
/// use agent_test::agent::agent_fn;
/// use agent_test::scenario::Scenario;
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let scenario = Scenario::new("greeting").user("hi").expect_turn(reply().contains("hello"));
/// let report = scenario.run(Suite::new().agent(agent_fn(|_r| async { "Hello!" }))).await;
/// assert!(report.passed());
/// # });
/// ```
pub trait RunScenario {
    /// Evaluates the scenario's checks on a recorded transcript, calling nothing (passive
    /// evaluation). The transcript's turns take the places of the scenario's user steps. To
    /// evaluate many transcripts, prepare the scenario once with [`RunScenario::evaluator`].
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::model::Reply;
    /// use agent_test::model::{Transcript, Turn};
    /// use agent_test::scenario::Scenario;
    /// let recorded = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 30)]);
    /// let report = Scenario::new("greeting").user("hi").expect_turn(reply().starts_with("hello")).evaluate(&recorded);
    /// assert!(report.passed());
    /// ```
    fn evaluate(&self, transcript: &Transcript) -> Report;

    /// Runs the scenario against the suite's agent and returns the report (also written as
    /// JSON; see [`Report`]).
    ///
    /// See the type's example.
    ///
    /// A repeated scenario (its `repeat`, else the suite's) runs that many times, each run on
    /// a clone of `suite` — whose agent is then shared by the runs: give each run an agent of
    /// its own with [`RunScenario::run_fresh`].
    fn run(&self, suite: Suite) -> impl Future<Output = Report>;

    /// Runs the scenario as many times as its repeat plan says (its `repeat`, `min_passes`
    /// and `min_pass_rate`, else the suite's), each run against a fresh suite from `suite()`
    /// — a fresh agent and conversation, as `agent_test!` gives every run — and returns the
    /// report of them all (also written as JSON).
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::Suite;
    /// use agent_test::agent::agent_fn;
    /// use agent_test::scenario::Scenario;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// static CALLS: AtomicUsize = AtomicUsize::new(0);
    /// let scenario = Scenario::new("refund")
    ///     .user("refund please")
    ///     .expect_turn(reply().contains("refund"))
    ///     .repeat(4)
    ///     .min_passes(3);
    /// let report = scenario
    ///     .run_fresh(|| {
    ///         Suite::new().agent(agent_fn(|_r| async {
    ///             // Forgets the refund on every fourth call.
    ///             if CALLS.fetch_add(1, Ordering::SeqCst) % 4 == 3 { "Done." } else { "Your refund is on its way." }
    ///         }))
    ///     })
    ///     .await;
    /// let summary = report.repeats.as_ref().unwrap();
    /// assert_eq!((summary.runs, summary.passed_runs), (4, 3));
    /// assert!(report.passed());
    /// # });
    /// ```
    fn run_fresh(&self, suite: impl FnMut() -> Suite) -> impl Future<Output = Report>;

    /// The scenario prepared for evaluating many transcripts (see [`ScenarioEvaluator`]).
    ///
    /// See [`ScenarioEvaluator`]'s example.
    fn evaluator(&self) -> ScenarioEvaluator;
}

impl RunScenario for Scenario {
    fn evaluate(&self, transcript: &Transcript) -> Report {
        self.evaluator().evaluate(transcript.clone())
    }

    async fn run(&self, suite: Suite) -> Report {
        self.run_fresh(|| suite.clone()).await
    }

    async fn run_fresh(&self, mut suite: impl FnMut() -> Suite) -> Report {
        let mut repeats = super::Repeats::new();
        loop {
            let info = self.info().repeated(repeats.index());
            let run = drive(self, ScenarioRun::with_info(suite(), info)).await;
            if let Some(report) = repeats.record(run).await {
                return report;
            }
        }
    }

    fn evaluator(&self) -> ScenarioEvaluator {
        ScenarioEvaluator::new(self)
    }
}

/// Takes `run` through the scenario's steps and adds its checks; the caller finishes it
/// (a report, or one of several repeated runs).
pub(crate) async fn drive(scenario: &Scenario, mut run: ScenarioRun) -> ScenarioRun {
    // The scenario's own repeat plan wins over the suite's, as in `agent_test!`.
    if let Some(runs) = scenario.repeat {
        run.repeat(runs);
    }
    if let Some(runs) = scenario.min_passes {
        run.min_passes(runs);
    }
    if let Some(gate) = scenario.min_pass_rate {
        run.min_pass_rate(gate);
    }
    for (k, v) in scenario.context.iter() {
        run.context(k.clone(), v);
    }
    run.history(scenario.history.iter().cloned());
    let mut bag = Bag::default();
    let text = |bag: &Bag, run: &ScenarioRun, t: &str| {
        if scenario.interpolate {
            bag.interpolate(t, run.transcript())
        } else {
            t.to_owned()
        }
    };
    for step in &scenario.steps {
        match step {
            Step::User {
                text: t,
                body,
                expect,
            } => {
                let input = match body {
                    Some(b) if scenario.interpolate => {
                        custom_body(bag.interpolate_value(b, run.transcript()))
                    }
                    Some(b) => custom_body(b.clone()),
                    None => text(&bag, &run, t).into(),
                };
                run.user(input).await;
                for e in expect {
                    run.expect_turn(e.clone());
                }
            }
            Step::System { text: t } => {
                let t = text(&bag, &run, t);
                run.system(t);
            }
            Step::Extract {
                name,
                description,
                transcript,
                id,
            } => {
                let mut what = Extraction::new(description.clone());
                if *transcript {
                    what = what.from_transcript();
                }
                let value: Value = run.extract(what).await;
                keep(&mut bag, &mut run, Some(name), id.as_deref(), value);
            }
            Step::Simulate {
                objective,
                min_turns,
                max_turns,
                continue_after_pass,
                expect,
            } => {
                let mut user =
                    simulated_user(text(&bag, &run, objective)).turns(*min_turns..=*max_turns);
                if *continue_after_pass {
                    user = user.continue_after_pass();
                }
                run.simulate(user, |run| {
                    for e in expect {
                        run.expect_turn(e.clone());
                    }
                })
                .await;
            }
            Step::Request {
                request,
                input,
                save_as,
                id,
            } => {
                let body = if scenario.interpolate {
                    bag.interpolate_value(input, run.transcript())
                } else {
                    input.clone()
                };
                let output = run.request_step(request, body).await;
                keep(
                    &mut bag,
                    &mut run,
                    save_as.as_deref(),
                    id.as_deref(),
                    output,
                );
            }
            Step::Expect { expect } => {
                for e in expect {
                    if run.transcript().turns.is_empty() {
                        run.expect(e.clone());
                    } else {
                        run.expect_turn(e.clone());
                    }
                }
            }
            Step::CheckVariable {
                path,
                op,
                equals,
                label,
                warning,
            } => {
                let actual = bag.lookup(path, run.transcript());
                let expected = if scenario.interpolate {
                    bag.interpolate_value(equals, run.transcript())
                } else {
                    equals.clone()
                };
                run.check_variable(path, actual, *op, &expected, label.clone(), *warning);
            }
        }
    }
    for e in &scenario.expect {
        run.expect(e.clone());
    }
    run
}

/// A step's value kept in the bag — as the variable `name` and as the output of step `id`,
/// either or both — and in the recording, in the order of `Scenario::bag_entries`.
fn keep(bag: &mut Bag, run: &mut ScenarioRun, name: Option<&str>, id: Option<&str>, value: Value) {
    if let Some(name) = name {
        let var = bag.set_var(name, value.clone());
        run.transcript.variables.push(var);
    }
    if let Some(id) = id {
        let out = bag.set_output(id, value);
        run.transcript.variables.push(out);
    }
}
