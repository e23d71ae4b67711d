//! The one evaluation of a scenario: from a transcript to its report, whichever road the
//! transcript came by — a live run, a recorded run, a test file's case, `agent-test eval`.

use crate::report::Report;
use crate::run::recorded_steps::{VariableCheckAt, live_only, variable_checks};
use crate::snapshot::Snapshots;
use agent_test_core::check::Expectation;
use agent_test_core::model::ScenarioInfo;
use agent_test_core::model::Verdict;
use agent_test_core::model::prices::Prices;
use agent_test_core::model::{Context, Transcript};
use agent_test_core::scenario::Scenario;
use agent_test_network::agent::cassette_entries::EntriesUsed;
use agent_test_network::judge::{Judge, JudgeUsage};

/// A scenario's checks with their scopes, prepared once and shared by every evaluation: the
/// compiled regexes (and their match caches), schemas and paths are reused from one
/// transcript to the next. Every road to a report goes through it: a live run (`agent_test!`,
/// [`ScenarioRun`](crate::ScenarioRun)) evaluates what it recorded with it, as
/// [`Scenario::evaluate`](super::RunScenario::evaluate), a test file's recorded case and `agent-test eval` do — so one
/// transcript gets one report whichever way it came, priced by the same
/// [`priced`](ScenarioEvaluator::priced) table and compared with the same snapshots.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::model::Reply;
/// use agent_test::model::{Transcript, Turn};
/// use agent_test::scenario::Scenario;
///
/// let scenario = Scenario::new("greeting").user("hi").expect_turn(reply().matches("(?i)^hello"));
/// let evaluator = scenario.evaluator();
/// for text in ["Hello!", "Hi."] {
///     let recorded = Transcript::new(vec![Turn::new(0, "hi", Reply::text(text), 30)]);
///     let report = evaluator.evaluate(recorded);
///     assert_eq!(report.passed(), text == "Hello!");
/// }
/// ```
#[derive(Clone, Debug)]
pub struct ScenarioEvaluator {
    info: ScenarioInfo,
    expectations: Vec<Expectation>,
    /// The checks' labels, worked out once for every transcript.
    labels: Vec<String>,
    /// What only a live run can judge (simulated users, the checks after them), reported as
    /// errors so that nothing the scenario asks for is silently dropped.
    live_only: Vec<Verdict>,
    /// Variable checks, evaluated on the variables a recording kept.
    variables: Vec<VariableCheckAt>,
    /// Whether the scenario interpolates (its variable checks' values).
    interpolate: bool,
    /// The scenario's context variables, for recordings that do not carry them.
    context: Context,
    /// The price table that prices each turn before the checks read it.
    prices: Option<Prices>,
    /// The files of its snapshot checks (looked up when the scenario's place is known).
    snapshots: Snapshots,
    /// Whether reports keep the checks as data ([`Report::checks`]).
    keep_checks: bool,
}

/// What a live run brings to its evaluation besides the transcript: the verdicts of its setup
/// and model-powered steps, what those cost and noted, the cassette its calls used.
#[derive(Default)]
pub(crate) struct RunParts<'a> {
    /// Setup errors, reported first.
    pub(crate) setup: Vec<Verdict>,
    /// Verdicts of steps (extract, simulate, budget), after the agent's failed turns.
    pub(crate) steps: Vec<Verdict>,
    /// What those steps cost.
    pub(crate) usage: Option<JudgeUsage>,
    /// Their notes.
    pub(crate) notes: Vec<String>,
    /// The cassette entries the run's calls used (the judge's are added).
    pub(crate) cassette: Option<&'a EntriesUsed>,
    /// Which run of a repeated scenario this is.
    pub(crate) repeat: usize,
    /// When the run started: its report's duration runs to the end of the evaluation, the
    /// judge's grading included.
    pub(crate) started: Option<std::time::Instant>,
}

impl ScenarioEvaluator {
    /// Prepares `scenario` (see [`Scenario::evaluator`](super::RunScenario::evaluator)).
    pub fn new(scenario: &Scenario) -> Self {
        Self::from(scenario.clone())
    }

    fn with_expectations(mut self, mut expectations: Vec<Expectation>) -> Self {
        self.snapshots = Snapshots::look_up(&mut expectations, &self.info);
        self.labels = expectations
            .iter()
            .map(Expectation::display_label)
            .collect();
        self.expectations = expectations;
        self
    }

    /// The scenario's name.
    ///
    /// ```
    /// # use agent_test::scenario::{RunScenario, Scenario};
    /// assert_eq!(Scenario::new("refund").evaluator().name(), "refund");
    /// ```
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// Whether some check needs the judge ([`ScenarioEvaluator::evaluate_judged`]).
    ///
    /// ```
    /// # use agent_test::{prelude::*, scenario::Scenario};
    /// assert!(Scenario::new("x").expect(judge("polite")).evaluator().needs_judge());
    /// ```
    pub fn needs_judge(&self) -> bool {
        self.expectations
            .iter()
            .any(|e| agent_test_network::judge::needs_judge(&e.check))
    }

    /// Evaluates the checks on a recorded transcript, calling nothing. The transcript is moved
    /// into the report rather than copied.
    ///
    /// See the type's example.
    pub fn evaluate(&self, transcript: Transcript) -> Report {
        let transcript = self.prepare(transcript);
        let checked = agent_test_core::evaluate::evaluate_with(
            &transcript,
            &self.expectations,
            None,
            Some(&self.labels),
        );
        self.assemble(transcript, checked, RunParts::default())
    }

    /// Evaluates the checks on a recorded transcript, with `judge` grading the judge checks
    /// (all in one request, or from its cache). Without a judge, judge checks are errors.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::model::Reply;
    /// use agent_test::model::{Transcript, Turn};
    /// use agent_test::scenario::Scenario;
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let scenario = Scenario::new("greeting").user("hi").expect_turn(judge("is friendly"));
    /// let recorded = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 30)]);
    /// let report = scenario.evaluator().evaluate_judged(recorded, None).await;
    /// assert!(report.verdicts[0].reason.starts_with("not graded: no judge configured"));
    /// # });
    /// ```
    pub async fn evaluate_judged(&self, transcript: Transcript, judge: Option<&Judge>) -> Report {
        self.evaluate_run(transcript, judge, RunParts::default())
            .await
    }

    /// The one evaluation every road ends in: the transcript priced and given the scenario's
    /// context, the checks evaluated (the judge's grades in one request, its calls through the
    /// run's cassette), the report assembled.
    pub(crate) async fn evaluate_run(
        &self,
        transcript: Transcript,
        judge: Option<&Judge>,
        mut run: RunParts<'_>,
    ) -> Report {
        let transcript = self.prepare(transcript);
        let own = EntriesUsed::default();
        let cassette = run.cassette.unwrap_or(&own);
        let (checked, judgements, usage) = cassette
            .scope(agent_test_network::judge::evaluate_judged(
                judge,
                &transcript,
                &self.expectations,
                Some(&self.labels),
                run.repeat,
            ))
            .await;
        if let Some(usage) = usage {
            match &mut run.usage {
                Some(u) => u.merge(&usage),
                None => run.usage = Some(usage),
            }
        }
        run.notes.extend(judgements.notes().iter().cloned());
        let used = cassette.list();
        let mut report = self.assemble(transcript, checked, run);
        report.cassette = used;
        report
    }

    /// The transcript as the checks read it: the scenario's context variables the recording
    /// lacks (a recording's own values win: they are what the run really used), each turn
    /// priced.
    fn prepare(&self, mut transcript: Transcript) -> Transcript {
        if !self.context.is_empty() {
            let mut context = self.context.clone();
            context.extend(&transcript.context);
            transcript.context = context;
        }
        if let Some(prices) = &self.prices {
            prices.apply(&mut transcript);
        }
        transcript
    }

    /// The report: setup errors, the agent's failed turns, the steps' verdicts, the checks'
    /// verdicts, then what a recording cannot show and the variable checks; snapshots that
    /// differ are written as pending.
    fn assemble(&self, transcript: Transcript, checked: Vec<Verdict>, run: RunParts<'_>) -> Report {
        let RunParts {
            setup,
            steps,
            usage,
            mut notes,
            started,
            ..
        } = run;
        let (snapshot_notes, snapshot_error) =
            self.snapshots
                .settle(&self.expectations, &checked, &self.info.name);
        notes.extend(snapshot_notes);
        let mut verdicts = setup;
        verdicts.extend(snapshot_error);
        verdicts.extend(agent_test_core::evaluate::turn_failures(&transcript));
        verdicts.extend(steps);
        verdicts.extend(checked);
        verdicts.extend(self.live_only.iter().cloned());
        verdicts.extend(
            self.variables
                .iter()
                .map(|v| v.verdict(&transcript, self.interpolate)),
        );
        let duration_ms = started.map_or(0, |s| {
            u64::try_from(s.elapsed().as_millis()).unwrap_or(u64::MAX)
        });
        let mut report = Report::new(self.info.clone(), verdicts, transcript, duration_ms);
        if self.keep_checks {
            report.checks = agent_test_core::check::as_data(&self.expectations);
        }
        report.judge = usage;
        report.add_notes(&notes);
        report
    }

    /// The price table that prices each turn (a cost check reads it): a suite's `prices`,
    /// `agent-test eval --prices`.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::model::Reply;
    /// use agent_test::model::{Transcript, Turn, Usage};
    /// use agent_test::report::prices::Prices;
    /// use agent_test::scenario::Scenario;
    /// let scenario = Scenario::new("cheap").user("hi").expect(cost().at_most_usd(0.01));
    /// let reply = Reply::text("Hello!").chat_model("gpt-4o").usage(Usage::new(1_000, 500));
    /// let recorded = || Transcript::new(vec![Turn::new(0, "hi", reply.clone(), 30)]);
    /// assert!(!scenario.evaluator().evaluate(recorded()).passed());
    /// let priced = scenario.evaluator().priced(Prices::builtin());
    /// assert!(priced.evaluate(recorded()).passed());
    /// ```
    pub fn priced(mut self, prices: impl Into<Option<Prices>>) -> Self {
        self.prices = prices.into();
        self
    }

    /// Reports without their checks as data ([`Report::checks`] left empty), for a consumer
    /// that never evaluates them again: `agent-test eval`, whose output names each recording
    /// rather than repeating it. Writing the checks out is most of a report's cost past the
    /// evaluation when each scenario evaluates one recording.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::model::Reply;
    /// use agent_test::model::{Transcript, Turn};
    /// use agent_test::scenario::Scenario;
    /// let scenario = Scenario::new("x").user("hi").expect(reply().contains("hello"));
    /// let recorded = || Transcript::new(vec![Turn::new(0, "hi", Reply::text("hello"), 1)]);
    /// assert_eq!(scenario.evaluator().evaluate(recorded()).checks.len(), 1);
    /// let report = scenario.evaluator().without_checks_data().evaluate(recorded());
    /// assert!(report.checks.is_empty() && report.passed());
    /// ```
    pub fn without_checks_data(mut self) -> Self {
        self.keep_checks = false;
        self
    }

    /// The evaluation of a live run of `info` (its name, place and repeat index) checking
    /// `expectations`: its snapshots are looked up beside the scenario's file.
    pub(crate) fn for_run(
        info: ScenarioInfo,
        expectations: Vec<Expectation>,
        prices: Option<Prices>,
    ) -> Self {
        ScenarioEvaluator {
            info,
            live_only: Vec::new(),
            variables: Vec::new(),
            interpolate: false,
            context: Context::default(),
            labels: Vec::new(),
            expectations: Vec::new(),
            prices,
            snapshots: Snapshots::default(),
            keep_checks: true,
        }
        .with_expectations(expectations)
    }

    /// The evaluation with the scenario placed as `info` says (a test file's case: its module
    /// and file), its snapshots looked up there.
    pub(crate) fn located(mut self, info: ScenarioInfo) -> Self {
        self.info = info;
        let expectations = std::mem::take(&mut self.expectations);
        self.with_expectations(expectations)
    }

    /// The checks it evaluates.
    pub(crate) fn expectations(&self) -> &[Expectation] {
        &self.expectations
    }
}

/// The scenario prepared for evaluating many transcripts, taken rather than copied: what a
/// command evaluating thousands of scenarios uses.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::{ScenarioEvaluator, scenario::Scenario};
/// let evaluator = ScenarioEvaluator::from(Scenario::new("x").user("hi").expect(no_tools()));
/// assert_eq!(evaluator.name(), "x");
/// ```
impl From<Scenario> for ScenarioEvaluator {
    fn from(mut scenario: Scenario) -> Self {
        ScenarioEvaluator {
            info: scenario.info(),
            live_only: live_only(&scenario),
            variables: variable_checks(&scenario),
            interpolate: scenario.interpolate,
            context: std::mem::take(&mut scenario.context),
            labels: Vec::new(),
            expectations: Vec::new(),
            prices: None,
            snapshots: Snapshots::default(),
            keep_checks: true,
        }
        .with_expectations(scenario.into_expectations())
    }
}
