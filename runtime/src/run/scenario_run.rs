//! One live run of a scenario: drives the agent turn by turn, collects checks, reports.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jiff::Zoned;

use serde::Serialize;

use super::Suite;
use super::agent_call::call_agent;
use crate::report::{Report, write_json};
use agent_test_core::check::{Expectation, IntoExpectation, Outcome, Scope, Severity};
use agent_test_core::compare::clock::Clock;
use agent_test_core::model::ScenarioInfo;
use agent_test_core::model::Verdict;
use agent_test_core::model::{Context, Message, Transcript, Turn};
use agent_test_network::agent::cassette_entries::EntriesUsed;
use agent_test_network::agent::{Agent, AgentError, AgentRequest, UserInput};
use agent_test_network::judge::{Judge, JudgeUsage};

/// A run of one scenario in progress: the builder API behind `agent_test!`.
///
/// Turns run when they are awaited; checks are collected as they are written and all evaluated
/// together by [`ScenarioRun::report`], so every failure of the scenario is reported at once.
/// A check added with [`ScenarioRun::expect_turn`] sees the last turn; one added with
/// [`ScenarioRun::expect`] sees the whole conversation. Ordinary Rust code can run between
/// steps and feed later turns and checks.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::{ScenarioRun, Suite};
/// use agent_test::agent::agent_fn;
/// use agent_test::model::{Call, Reply};
/// use serde_json::json;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let agent = agent_fn(|req| async move {
///     Reply::text(format!("Looking up {}", req.input))
///         .call(Call::tool("lookup_order", json!({"order_id": req.input})))
/// });
/// let mut run = ScenarioRun::new(Suite::new().agent(agent), "lookup");
/// run.user("ORD-9921").await;
/// run.expect_turn(tool("lookup_order").arg("order_id", "ORD-9921"));
/// run.expect(no_tool("process_refund"));
/// let report = run.report().await;
/// assert!(report.passed());
/// # });
/// ```
pub struct ScenarioRun {
    pub(super) suite: Suite,
    pub(super) info: ScenarioInfo,
    pub(super) transcript: Transcript,
    pending: Vec<Message>,
    expectations: Vec<Expectation>,
    setup_errors: Vec<String>,
    /// Verdicts of model-powered steps (extract, simulate), reported with the checks.
    step_verdicts: Vec<Verdict>,
    /// What those steps cost.
    step_usage: Option<JudgeUsage>,
    /// Notes of those steps for the report (the judge's cache could not be written, ...).
    step_notes: Vec<String>,
    /// The cassette entries the agent's and the judge's model calls used.
    pub(super) cassette: EntriesUsed,
    started: Instant,
}

impl ScenarioRun {
    /// Starts a run of the scenario `name` with the suite's settings.
    ///
    /// See the type's example.
    pub fn new(suite: Suite, name: impl Into<String>) -> Self {
        Self::with_info(suite, ScenarioInfo::new(name))
    }

    /// Starts a run with full scenario info (description, source location).
    ///
    /// ```
    /// # use agent_test::{ScenarioInfo, ScenarioRun, Suite};
    /// let run = ScenarioRun::with_info(Suite::new(), ScenarioInfo::new("x").described("demo"));
    /// # let _ = run;
    /// ```
    pub fn with_info(suite: Suite, mut info: ScenarioInfo) -> Self {
        // The suite's tags first, then the scenario's own.
        let own = std::mem::take(&mut info.tags);
        let info = info.tagged(suite.tags.iter().cloned()).tagged(own);
        ScenarioRun {
            setup_errors: suite.setup_errors.clone(),
            transcript: {
                let mut transcript = Transcript::default();
                transcript.context = suite.context.clone();
                transcript
            },
            suite,
            info,
            pending: Vec::new(),
            expectations: Vec::new(),
            step_verdicts: Vec::new(),
            step_usage: None,
            step_notes: Vec::new(),
            cassette: EntriesUsed::default(),
            started: Instant::now(),
        }
    }

    /// Sets a context variable for this scenario (overriding a suite variable of the same
    /// name). It is passed to the agent with every turn.
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.context("PLAN", "premium");
    /// assert_eq!(run.context_vars().get("PLAN").unwrap(), "premium");
    /// ```
    pub fn context(&mut self, key: impl Into<String>, value: impl Serialize) -> &mut Self {
        let key = key.into();
        match serde_json::to_value(value) {
            Ok(v) => self.transcript.context.insert(key, v),
            Err(e) => self.setup_errors.push(format!(
                "context variable `{key}` is not representable as JSON: {e}"
            )),
        }
        self
    }

    /// Adds tags to this scenario, after the suite's (`tags = [..];` in a scenario); see
    /// [`Suite::tags`].
    ///
    /// See [`Suite::tags`].
    pub fn tags<S: Into<String>>(&mut self, tags: impl IntoIterator<Item = S>) -> &mut Self {
        let tags: Vec<String> = tags.into_iter().map(Into::into).collect();
        match ScenarioInfo::tags_problem(&tags) {
            Some(p) => self.setup_errors.push(format!("scenario {p}")),
            None => self.info = std::mem::take(&mut self.info).tagged(tags),
        }
        self
    }

    /// The scenario's name, description, origin and tags.
    ///
    /// See [`Suite::tags`].
    pub fn info(&self) -> &ScenarioInfo {
        &self.info
    }

    /// The context variables of this run.
    ///
    /// See [`ScenarioRun::context`].
    pub fn context_vars(&self) -> &Context {
        &self.transcript.context
    }

    /// Replaces the suite's agent for this scenario.
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite, agent::agent_fn};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.agent(agent_fn(|_r| async { "hi" }));
    /// ```
    pub fn agent(&mut self, agent: impl Agent + 'static) -> &mut Self {
        self.suite.agent = Some(Arc::new(agent));
        self
    }

    /// Replaces the per-turn timeout for this scenario.
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.timeout(std::time::Duration::from_secs(5));
    /// ```
    pub fn timeout(&mut self, timeout: Duration) -> &mut Self {
        self.suite.timeout = timeout;
        self
    }

    /// Replaces the clock for this scenario (set it before the first turn: the run's time is
    /// taken when the user sends the first message).
    ///
    /// ```
    /// # use agent_test::{Clock, ScenarioRun, Suite};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.clock(Clock::fixed("2026-11-23T09:00:00Z")).timezone("Europe/Lisbon");
    /// ```
    pub fn clock(&mut self, clock: Clock) -> &mut Self {
        self.suite.clock = clock;
        self
    }

    /// Replaces the time zone for this scenario (an IANA name).
    ///
    /// See [`ScenarioRun::clock`].
    pub fn timezone(&mut self, tz: impl Into<String>) -> &mut Self {
        self.suite.timezone = tz.into();
        self
    }

    /// Replaces the judge for this scenario (`judge = ...;` inside a scenario).
    ///
    /// ```
    /// # #[cfg(feature = "http")] {
    /// # use agent_test::{ScenarioRun, Suite, judge::Judge};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.judge(Judge::anthropic("claude-3-5-haiku-20241022"));
    /// # }
    /// ```
    pub fn judge(&mut self, judge: agent_test_network::judge::Judge) -> &mut Self {
        self.suite.judge = Some(judge);
        self
    }

    /// Runs this scenario that many times, or up to that many (`repeat = 5;`, `repeat =
    /// up_to(100);` inside a scenario); see
    /// [`Suite::repeat`].
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.repeat(5).min_passes(4);
    /// ```
    pub fn repeat(
        &mut self,
        runs: impl Into<agent_test_core::model::repeat_plan::Runs>,
    ) -> &mut Self {
        self.suite.repeat.runs(runs.into());
        self
    }

    /// How many of this scenario's repeated runs must pass; see [`Suite::min_passes`].
    ///
    /// See [`ScenarioRun::repeat`].
    pub fn min_passes(&mut self, runs: u32) -> &mut Self {
        self.suite.repeat.min_passes = Some(runs);
        self
    }

    /// The pass rate this scenario's repeated runs must show, with a confidence
    /// (`min_pass_rate = (0.9, 0.95);` inside a scenario); see [`Suite::min_pass_rate`].
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.repeat(40).min_pass_rate((0.9, 0.95));
    /// ```
    pub fn min_pass_rate(
        &mut self,
        gate: impl Into<agent_test_core::model::reliability::MinPassRate>,
    ) -> &mut Self {
        self.suite.repeat.min_pass_rate = Some(gate.into());
        self
    }

    /// This scenario's price table (`prices = ..;` inside a scenario); see [`Suite::prices`].
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite};
    /// use agent_test::report::prices::Prices;
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.prices(Prices::builtin().unnamed_as("gpt-4o"));
    /// ```
    pub fn prices(&mut self, prices: impl agent_test_core::model::prices::IntoPrices) -> &mut Self {
        match prices.into_prices().map_err(|e| e.to_string()) {
            Ok(p) => self.suite.prices = Some(p),
            Err(e) => self.setup_errors.push(e),
        }
        self
    }

    /// The judge (its model also extracts and plays simulated users): the scenario's or
    /// suite's, else the one the environment names.
    pub(crate) fn llm_for_steps(&self) -> Option<Judge> {
        self.suite.judge_or_env()
    }

    /// Records a model-powered step's verdict.
    pub(crate) fn step_verdict(&mut self, label: String, kind: &'static str, outcome: Outcome) {
        self.step_verdict_with(label, kind, outcome, Severity::Error);
    }

    /// Records a step's verdict with its severity.
    pub(crate) fn step_verdict_with(
        &mut self,
        label: String,
        kind: &'static str,
        outcome: Outcome,
        severity: Severity,
    ) {
        self.step_verdicts.push(super::step_verdict::step_verdict(
            label, kind, severity, outcome,
        ));
    }

    /// Records that a model-powered step could not be done.
    pub(crate) fn step_error(&mut self, label: String, kind: &'static str, reason: String) {
        self.step_verdict(label, kind, Outcome::error(reason));
    }

    /// Adds what a model-powered step cost.
    pub(crate) fn add_step_usage(&mut self, usage: JudgeUsage) {
        match &mut self.step_usage {
            Some(u) => u.merge(&usage),
            None => self.step_usage = Some(usage),
        }
    }

    /// Adds notes of a model-powered step for the report.
    pub(crate) fn add_step_notes(&mut self, notes: Vec<String>) {
        self.step_notes.extend(notes);
    }

    /// Pins the run's "now" (its `user_time`) the first time it is needed.
    fn user_time(&mut self) -> Zoned {
        if let Some(t) = &self.transcript.user_time {
            return t.clone();
        }
        let now = match self.suite.clock.now(&self.suite.timezone) {
            Ok(now) => now,
            Err(e) => {
                self.setup_errors.push(e.to_string());
                jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC)
            }
        };
        self.transcript.user_time = Some(now.clone());
        now
    }

    /// Adds conversation history the agent did not produce: before the first turn it is the
    /// prior history; later it is inserted before the next user message.
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite, model::Message};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.history([Message::user("Who is the King of England?"), Message::assistant("Charles III.")]);
    /// assert_eq!(run.transcript().history.len(), 2);
    /// ```
    pub fn history(&mut self, messages: impl IntoIterator<Item = Message>) -> &mut Self {
        if self.transcript.turns.is_empty() {
            self.transcript.history.extend(messages);
        } else {
            self.pending.extend(messages);
        }
        self
    }

    /// Adds a system message; the agent sees it with the next user turn. No agent call is made.
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite};
    /// let mut run = ScenarioRun::new(Suite::new(), "x");
    /// run.system("Answer in French.");
    /// ```
    pub fn system(&mut self, text: impl Into<String>) -> &mut Self {
        self.history([Message::system(text)])
    }

    /// Runs one user turn: sends `input` with the conversation so far to the agent and records
    /// what it did. An agent error, panic or timeout is recorded on the turn (and reported),
    /// and the run goes on.
    ///
    /// See the type's example.
    pub fn user(&mut self, input: impl Into<UserInput>) -> impl Future<Output = ()> + '_ {
        self.run_turn(input.into())
    }

    async fn run_turn(&mut self, input: UserInput) {
        // A repeat plan that can never be met runs nothing: not one call to the agent.
        if self.plan_refused() {
            return;
        }
        // A spent budget starts no turn (said once: the turns after it did not run either).
        if let Some(why) = self.budget_refusal() {
            let index = self.transcript.turns.len();
            if !self.step_verdicts.iter().any(|v| v.check == "budget") {
                self.step_error(
                    "budget".to_owned(),
                    "budget",
                    format!(
                        "{why} before turn {}: it and the turns after it were not run",
                        index + 1
                    ),
                );
            }
            return;
        }
        let UserInput { text: input, body } = input;
        let index = self.transcript.turns.len();
        let before = std::mem::take(&mut self.pending);
        let mut messages = self.transcript.messages();
        messages.extend(before.iter().cloned());
        messages.push(Message::user(input.clone()));
        let mut request = AgentRequest::new(self.info.name.clone(), index, messages);
        request.context = self.transcript.context.clone();
        request.custom_body = body;
        request.user_time = Some(self.user_time());
        let started = Instant::now();
        let timed = self
            .suite
            .agent
            .as_ref()
            .is_none_or(|a| a.runner_measures_latency());
        let result = match &self.suite.agent {
            Some(agent) => {
                self.cassette
                    .scope(call_agent(agent.as_ref(), request, self.suite.timeout))
                    .await
            }
            None => Err(AgentError::new(
                "no agent configured: set `agent = ...;` in agent_test!, or call Suite::agent",
            )),
        };
        let ms = timed.then(|| u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
        let mut turn = match result {
            Ok(reply) => Turn::timed(index, input, reply, ms),
            Err(e) => {
                let error = Some(e.to_string());
                let partial = e.into_partial().unwrap_or_default();
                let mut turn = Turn::timed(index, input, partial, ms);
                turn.error = error;
                turn
            }
        };
        turn.before = before;
        self.spend(&turn);
        self.transcript.turns.push(turn);
    }

    /// Why the suite's budget lets no turn start, if it does not: spent, unknown, or not
    /// measurable (no prices to price the turns with).
    fn budget_refusal(&self) -> Option<String> {
        let budget = self.suite.budget.as_ref()?;
        if self.suite.prices.is_none() {
            return Some(format!(
                "budget spent: max_cost_usd = {} cannot be kept without prices to price the \
                 turns (set `prices = ..;`)",
                agent_test_core::model::prices::usd_text(budget.limit_usd())
            ));
        }
        budget.spent()
    }

    /// Adds what `turn` cost to the suite's budget.
    fn spend(&self, turn: &Turn) {
        if let (Some(budget), Some(prices)) = (&self.suite.budget, &self.suite.prices) {
            let usage = turn.reply.token_usage();
            let cost = prices.cost(turn.reply.chat_model.as_deref(), usage.as_ref());
            budget.add(
                &cost,
                &format!("scenario `{}`, turn {}", self.info.name, turn.index + 1),
            );
        }
    }

    /// Adds a check on the whole conversation.
    ///
    /// See the type's example.
    pub fn expect(&mut self, check: impl IntoExpectation) -> &mut Self {
        self.push(check.into_expectation(), Scope::Conversation, None)
    }

    /// Adds a check on the last turn.
    ///
    /// See the type's example.
    pub fn expect_turn(&mut self, check: impl IntoExpectation) -> &mut Self {
        let scope = self.last_turn_scope();
        self.push(check.into_expectation(), scope, None)
    }

    /// What `agent_test!` calls: a check with the source text it was written as.
    #[doc(hidden)]
    pub fn __expect(&mut self, check: impl IntoExpectation, source: &'static str, in_turn: bool) {
        let scope = if in_turn {
            self.last_turn_scope()
        } else {
            Scope::Conversation
        };
        self.push(check.into_expectation(), scope, Some(source));
    }

    fn last_turn_scope(&self) -> Scope {
        // (A check marked `.so_far()` widens this to every turn up to it; see `push`.)
        // Before any turn this names a turn that does not exist, which evaluates to an error
        // verdict ("turn 1 did not run") rather than silently widening the scope.
        Scope::Turn(self.transcript.turns.len().saturating_sub(1))
    }

    fn push(
        &mut self,
        mut e: Expectation,
        scope: Scope,
        source: Option<&'static str>,
    ) -> &mut Self {
        e.scope = e.scope.placed(scope);
        if e.label.is_none() {
            e.label = source.map(str::to_owned);
        }
        self.expectations.push(e);
        self
    }

    /// The last recorded turn, if any turn ran.
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite};
    /// assert!(ScenarioRun::new(Suite::new(), "x").last_turn().is_none());
    /// ```
    pub fn last_turn(&self) -> Option<&Turn> {
        self.transcript.turns.last()
    }

    /// What `let t = user ...;` binds in `agent_test!`: a copy of the last turn.
    #[doc(hidden)]
    pub fn __last_turn(&self) -> Turn {
        self.last_turn()
            .cloned()
            .unwrap_or_else(|| Turn::failed(0, "", "no turn ran", 0))
    }

    /// The transcript so far.
    ///
    /// See [`ScenarioRun::history`].
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// Evaluates every check, writes the JSON report (see [`Report`]) and returns the report.
    /// Call [`Report::assert_passed`] on it to fail the test when an error-severity check did
    /// not pass.
    ///
    /// See the type's example.
    pub async fn report(self) -> Report {
        let (mut report, report_dir) = self.finish().await;
        write_json(&mut report, report_dir.as_ref());
        report
    }

    /// Whether the scenario's repeat plan can never be met: then no step calls the agent or a
    /// model, and the report is the plan's error alone.
    pub(crate) fn plan_refused(&self) -> bool {
        self.suite.repeat.problem().is_some()
    }

    /// The report of a scenario whose repeat plan can never be met: the plan's error, naming
    /// the runs it needs, and every check not run — nothing was sent to the agent.
    fn refused_plan(
        self,
        problem: String,
    ) -> (Report, Option<agent_test_core::util::dirs::ReportDir>) {
        let mut verdicts = vec![super::step_verdict::step_verdict(
            "repeat plan".to_owned(),
            "setup",
            Severity::Error,
            Outcome::error(format!(
                "impossible constraint: {problem}; the scenario was not run"
            )),
        )];
        verdicts.extend(self.expectations.iter().map(|e| {
            let o = Outcome::skipped("not run: the repeat plan can never be met");
            agent_test_core::evaluate::verdict(e, o, e.display_label())
        }));
        let duration_ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let report = Report::new(self.info, verdicts, self.transcript, duration_ms);
        (report, self.suite.report_dir)
    }

    /// Evaluates every check: the report, and where the suite wants reports written (the
    /// caller writes it once, after combining repeated runs).
    pub(crate) async fn finish(
        mut self,
    ) -> (Report, Option<agent_test_core::util::dirs::ReportDir>) {
        self.user_time();
        if let Some(problem) = self.suite.repeat.problem() {
            return self.refused_plan(problem);
        }
        if self.transcript.turns.is_empty()
            && self.transcript.history.is_empty()
            && self.pending.is_empty()
            && self.expectations.is_empty()
            && self.step_verdicts.is_empty()
        {
            self.setup_errors
                .push(agent_test_core::scenario::EMPTY_SCENARIO.to_owned());
        }
        // Declared tools: every call the agent made must match them (added only when it
        // called tools, so the check always compares something).
        if let Some(tools) = &self.suite.tools
            && self
                .transcript
                .turns
                .iter()
                .any(|t| t.tool_calls().next().is_some())
        {
            let e = tools.expectation();
            self.push(e, Scope::Conversation, None);
        }
        let setup = self
            .setup_errors
            .iter()
            .map(|e| {
                super::step_verdict::step_verdict(
                    "scenario setup".to_owned(),
                    "setup",
                    Severity::Error,
                    Outcome::error(e.clone()),
                )
            })
            .collect();
        let evaluation = super::ScenarioEvaluator::for_run(
            self.info.clone(),
            std::mem::take(&mut self.expectations),
            self.suite.prices.clone(),
        );
        if evaluation
            .expectations()
            .iter()
            .any(|e| matches!(e.check, agent_test_core::check::Check::Snapshot(_)))
            && let Some(why) =
                crate::snapshot::live_model_warning(&self.transcript, !self.cassette.is_empty())
        {
            self.step_verdict_with(
                "snapshots".to_owned(),
                "snapshot",
                Outcome::fail(why),
                Severity::Warning,
            );
        }
        // The environment's judge is looked up only when a check needs one.
        let judge = if evaluation.needs_judge() {
            self.llm_for_steps()
        } else {
            None
        };
        let run = super::RunParts {
            setup,
            steps: std::mem::take(&mut self.step_verdicts),
            usage: self.step_usage.take(),
            notes: std::mem::take(&mut self.step_notes),
            cassette: Some(&self.cassette),
            repeat: self.info.repeat,
            started: Some(self.started),
        };
        let transcript = std::mem::take(&mut self.transcript);
        let report = evaluation
            .evaluate_run(transcript, judge.as_ref(), run)
            .await;
        (report, self.suite.report_dir)
    }
}

/// The judge the environment names, when the suite has none.
pub(super) fn env_judge() -> Option<Judge> {
    #[cfg(feature = "http")]
    {
        Judge::from_env_if_configured()
    }
    #[cfg(not(feature = "http"))]
    {
        None
    }
}
