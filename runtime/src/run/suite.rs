//! Settings shared by the scenarios of a suite.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::Repeat;
use agent_test_core::compare::clock::Clock;
use agent_test_core::model::prices::{IntoPrices, Prices};
use agent_test_core::model::reliability::MinPassRate;
use agent_test_core::model::repeat_plan::Runs;
use agent_test_core::model::{Context, ScenarioInfo};
use agent_test_core::util::dirs::ReportDir;
use agent_test_network::agent::Agent;
use agent_test_network::judge::Judge;

/// Settings shared by the scenarios of a suite: the agent under test, context variables, the
/// per-turn timeout and where JSON reports go.
///
/// In `agent_test!` these are the suite settings (`agent = ...;`, `context { ... }`, ...); with
/// the builder API, build a `Suite` and start each [`ScenarioRun`](crate::ScenarioRun) from it.
///
/// ```
/// use agent_test::Suite;
/// use agent_test::agent::agent_fn;
/// use std::time::Duration;
///
/// let suite = Suite::new()
///     .agent(agent_fn(|_req| async { "Hello!" }))
///     .context("USER_ID", 12345)
///     .timeout(Duration::from_secs(30));
/// assert_eq!(suite.context_vars().get("USER_ID").unwrap(), 12345);
/// ```
#[derive(Clone)]
pub struct Suite {
    pub(crate) agent: Option<Arc<dyn Agent>>,
    pub(crate) context: Context,
    pub(crate) report_dir: Option<ReportDir>,
    pub(crate) timeout: Duration,
    pub(crate) clock: Clock,
    pub(crate) timezone: String,
    pub(crate) setup_errors: Vec<String>,
    pub(crate) judge: Option<Judge>,
    pub(crate) repeat: Repeat,
    pub(crate) tools: Option<super::DeclaredTools>,
    pub(crate) tags: Vec<String>,
    pub(crate) prices: Option<Prices>,
    pub(crate) budget: Option<super::Budget>,
}

/// The per-turn timeout when none is set: generous, because real models are slow.
pub const DEFAULT_TURN_TIMEOUT: Duration = Duration::from_secs(120);

impl Default for Suite {
    fn default() -> Self {
        Suite {
            agent: None,
            context: Context::default(),
            report_dir: None,
            timeout: DEFAULT_TURN_TIMEOUT,
            clock: Clock::System,
            timezone: "UTC".to_owned(),
            setup_errors: Vec::new(),
            judge: None,
            repeat: Repeat::default(),
            tools: None,
            tags: Vec::new(),
            prices: None,
            budget: None,
        }
    }
}

impl Suite {
    /// The suite's judge, else the one the environment names (its model also extracts and
    /// plays simulated users).
    pub(crate) fn judge_or_env(&self) -> Option<agent_test_network::judge::Judge> {
        self.judge.clone().or_else(super::scenario_run::env_judge)
    }

    /// A suite with no agent, no context and default settings.
    ///
    /// See the type's example.
    pub fn new() -> Self {
        Self::default()
    }

    /// The agent under test.
    ///
    /// See the type's example.
    pub fn agent(mut self, agent: impl Agent + 'static) -> Self {
        self.agent = Some(Arc::new(agent));
        self
    }

    /// Adds a context variable. A value that cannot be represented as JSON is reported as an
    /// error verdict of every scenario of the suite.
    ///
    /// See the type's example.
    pub fn context(mut self, key: impl Into<String>, value: impl Serialize) -> Self {
        let key = key.into();
        match serde_json::to_value(value) {
            Ok(v) => self.context.insert(key, v),
            Err(e) => self.setup_errors.push(format!(
                "context variable `{key}` is not representable as JSON: {e}"
            )),
        }
        self
    }

    /// How long one turn may take before it is recorded as failed (default: 120 s).
    ///
    /// See the type's example.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The clock "now" comes from (default: the wall clock). A fixed clock makes date checks
    /// (`TODAY()`, `date(..)`) and the time agents are told reproducible.
    ///
    /// ```
    /// # use agent_test::{Clock, Suite};
    /// let suite = Suite::new().clock(Clock::fixed("2026-11-23T09:00:00Z")).timezone("Europe/Lisbon");
    /// # let _ = suite;
    /// ```
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The time zone dates are read and written in (an IANA name; default `UTC`).
    ///
    /// See [`Suite::clock`].
    pub fn timezone(mut self, tz: impl Into<String>) -> Self {
        self.timezone = tz.into();
        self
    }

    /// Where JSON reports are written, instead of `target/agent-test/` (the environment
    /// variable `AGENT_TEST_REPORT_DIR` overrides both).
    ///
    /// ```
    /// # use agent_test::Suite;
    /// let suite = Suite::new().report_dir("/tmp/agent-reports");
    /// # let _ = suite;
    /// ```
    pub fn report_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.report_dir = Some(ReportDir {
            path: dir.into(),
            over_env: false,
        });
        self
    }

    /// Where JSON reports are written, even when `AGENT_TEST_REPORT_DIR` is set: a choice
    /// made on a command line (the CLI's `--record-dir`), which wins over the environment as
    /// command-line options do.
    ///
    /// ```
    /// # use agent_test::Suite;
    /// let suite = Suite::new().report_dir_over_env("recordings/");
    /// # let _ = suite;
    /// ```
    pub fn report_dir_over_env(mut self, dir: impl Into<PathBuf>) -> Self {
        self.report_dir = Some(ReportDir {
            path: dir.into(),
            over_env: true,
        });
        self
    }

    /// The judge that grades the suite's judge checks (`judge = ...;` in `agent_test!`).
    /// Without one, `Judge::from_env()` is used when the environment names a judge model.
    ///
    /// ```
    /// # #[cfg(feature = "http")] {
    /// use agent_test::{Suite, judge::Judge};
    /// let suite = Suite::new().judge(Judge::openai("gpt-4o-mini-2024-07-18"));
    /// # let _ = suite;
    /// # }
    /// ```
    pub fn judge(mut self, judge: Judge) -> Self {
        self.judge = Some(judge);
        self
    }

    /// Runs every scenario `runs` times (`repeat = 5;`), or up to that many, stopping as soon
    /// as the runs decide the gate (`repeat = up_to(100);`, see [`up_to`](crate::up_to));
    /// by default every run must pass, see [`Suite::min_passes`]. `repeat(0)`, `min_passes(0)`
    /// and more passes than runs are impossible constraints: the scenario is not run, and its
    /// report says so.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::{Suite, up_to};
    /// let fixed = Suite::new().repeat(5).min_passes(4);
    /// let sequential = Suite::new().repeat(up_to(200)).min_pass_rate(0.9);
    /// # let _ = (fixed, sequential);
    /// ```
    pub fn repeat(mut self, runs: impl Into<Runs>) -> Self {
        self.repeat.runs(runs.into());
        self
    }

    /// Why the suite's repeat plan (`repeat`, `min_passes`, `min_pass_rate`) can never be met,
    /// if so — what a scenario run with it reports instead of running.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::{Suite, up_to};
    /// assert_eq!(
    ///     Suite::new().repeat(10).min_pass_rate((0.9, 0.95)).repeat_problem().unwrap(),
    ///     "min_pass_rate = (0.9, 0.95) can never be reached with repeat = 10: even 10 passes \
    ///      of 10 give a 95% lower bound of 0.72; it needs repeat = 35 or more"
    /// );
    /// assert_eq!(Suite::new().repeat(up_to(200)).min_pass_rate(0.9).repeat_problem(), None);
    /// ```
    pub fn repeat_problem(&self) -> Option<String> {
        self.repeat.problem()
    }

    /// How many of the repeated runs must pass (`min_passes = 4;`); the default is all of them.
    ///
    /// See [`Suite::repeat`].
    pub fn min_passes(mut self, runs: u32) -> Self {
        self.repeat.min_passes = Some(runs);
        self
    }

    /// The repeated runs pass only if their pass rate is at least `rate` with a confidence
    /// (`min_pass_rate = (0.9, 0.95);`): the lower bound of the pass rate's Wilson score
    /// interval must reach `rate`. Give a rate alone for 95 % (`0.9`) or a pair
    /// `(rate, confidence)`. It replaces the default "every run must pass"; a
    /// [`Suite::min_passes`] set too must hold as well.
    ///
    /// A rate outside (0, 1), a confidence outside (0, 1), or a rate that `repeat` runs can
    /// never prove (0.9 at 95 % needs at least 35 runs, all passing) is an impossible
    /// constraint: each run gets an error verdict saying so. A failing gate states its numbers:
    /// "pass rate 7/10 = 0.70, 95% lower bound 0.40 < 0.90 required".
    ///
    /// ```
    /// use agent_test::Suite;
    /// let suite = Suite::new().repeat(40).min_pass_rate((0.9, 0.95));
    /// let at_95 = Suite::new().repeat(20).min_pass_rate(0.8);
    /// # let _ = (suite, at_95);
    /// ```
    pub fn min_pass_rate(mut self, gate: impl Into<MinPassRate>) -> Self {
        self.repeat.min_pass_rate = Some(gate.into());
        self
    }

    /// Stops spending at `usd` US dollars (`max_cost_usd = 5.0;`): once the agent's turns, priced
    /// by the suite's [`prices`](Suite::prices), have cost that much, no further turn or run
    /// starts, and every scenario with a turn left reports "budget spent" — an error, never a
    /// pass. In `agent_test!` the scenarios of the block share the budget; with the builder
    /// API, share a [`Budget`](super::Budget) with [`Suite::budget`]. Needs `prices`.
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::Suite;
    /// use agent_test::report::prices::Prices;
    /// let suite = Suite::new().prices(Prices::builtin()).max_cost_usd(5.0);
    /// # let _ = suite;
    /// ```
    pub fn max_cost_usd(self, usd: f64) -> Self {
        self.budget(super::Budget::usd(usd))
    }

    /// Shares a spend limit with every suite that holds a clone of `budget` (see
    /// [`Suite::max_cost_usd`] and [`Budget`](super::Budget)).
    ///
    /// See [`Budget`](super::Budget).
    pub fn budget(mut self, budget: super::Budget) -> Self {
        if let Some(p) = budget.problem() {
            self.setup_errors.push(p);
        }
        self.budget = Some(budget);
        self
    }

    /// The price table that gives every turn its cost (`prices = Prices::from_file("prices.json");`
    /// in `agent_test!`): reports show the cost per turn, scenario and suite, `agent-test diff`
    /// compares it, and [`cost()`](agent_test_core::check::cost) budgets it. A table that cannot be read,
    /// or that is not one (a negative price, `unnamed_as` naming a model it lacks), is an error
    /// verdict of every scenario. See [`Prices`].
    ///
    /// ```
    /// use agent_test::Suite;
    /// use agent_test::report::prices::Prices;
    /// let ours = Suite::new().prices(Prices::new().model("our-model", 0.5, 1.5).unnamed_as("our-model"));
    /// let list = Suite::new().prices(Prices::builtin().unnamed_as("gpt-4o-mini"));
    /// let file = Suite::new().prices(Prices::from_file("prices.json"));
    /// # let _ = (ours, list, file);
    /// ```
    pub fn prices(mut self, prices: impl IntoPrices) -> Self {
        match prices.into_prices().map_err(|e| e.to_string()) {
            Ok(p) => self.prices = Some(p),
            Err(e) => self.setup_errors.push(e),
        }
        self
    }

    /// Declares the agent's tools (`tools = "tools.json";` in `agent_test!`), as the agent
    /// declares them to its model: OpenAI's tools list, Anthropic's or MCP's (see
    /// [`DeclaredTools`](super::DeclaredTools)). Every scenario in which the agent called tools
    /// then gets a check that each call names a declared tool with arguments valid against its
    /// schema. A declaration that cannot be read is an error verdict of every scenario.
    ///
    /// ```
    /// use agent_test::Suite;
    /// use serde_json::json;
    /// let suite = Suite::new().tools(json!([{"type": "function", "function": {
    ///     "name": "lookup_order",
    ///     "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}
    /// }}]));
    /// # let _ = suite;
    /// ```
    ///
    /// Needs the `schema` feature (the calls are validated against the schemas): without it,
    /// declaring tools is a compile error naming the feature.
    #[cfg(feature = "schema")]
    pub fn tools(mut self, tools: serde_json::Value) -> Self {
        match super::DeclaredTools::from_json(&tools) {
            Ok(t) => self.tools = Some(t),
            Err(e) => self.setup_errors.push(format!("declared tools: {e}")),
        }
        self
    }

    /// Without the `schema` feature: declaring tools is a compile error naming it (see the
    /// `schema` build's `Suite::tools`).
    #[cfg(not(feature = "schema"))]
    #[allow(unreachable_code, reason = "no type implements the bound")]
    pub fn tools<T: agent_test_core::check::gated::DeclaredToolsFeature>(self, tools: T) -> Self {
        match tools.never() {}
    }

    /// Tags every scenario of the suite has (`tags = ["billing"];` in `agent_test!`), before
    /// its own: reports show them and filter by them, and `agent-test` runs only the scenarios
    /// with a tag (`--tag`). A tag is one word; one that is not, or is listed twice, is a setup
    /// error of every scenario.
    ///
    /// ```
    /// # use agent_test::{ScenarioRun, Suite};
    /// let mut run = ScenarioRun::new(Suite::new().tags(["billing"]), "refund");
    /// run.tags(["slow", "billing"]);
    /// assert_eq!(run.info().tags, ["billing", "slow"]);
    /// ```
    pub fn tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        let tags: Vec<String> = tags.into_iter().map(Into::into).collect();
        match ScenarioInfo::tags_problem(&tags) {
            Some(p) => self.setup_errors.push(format!("suite {p}")),
            None => agent_test_core::model::info::add_tags(&mut self.tags, tags),
        }
        self
    }

    /// The suite's context variables.
    ///
    /// See the type's example.
    pub fn context_vars(&self) -> &Context {
        &self.context
    }
}

impl fmt::Debug for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Suite")
            .field("agent", &self.agent.as_ref().map(|_| "<agent>"))
            .field("context", &self.context)
            .field("report_dir", &self.report_dir)
            .field("timeout", &self.timeout)
            .field("clock", &self.clock)
            .field("timezone", &self.timezone)
            .field("judge", &self.judge)
            .field("repeat", &self.repeat)
            .field("tools", &self.tools)
            .finish()
    }
}
