//! A scenario as data: the form data files and importers produce.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::{Expectation, IntoExpectation, Scope};
use crate::model::reliability::MinPassRate;
use crate::model::repeat_plan::{Repeat, Runs};
use crate::model::{Context, Message, ScenarioInfo};
use crate::util::input::IMPOSSIBLE_AT;

/// A scenario as data: context, history, ordered steps with their turn checks, and checks on
/// the whole conversation.
///
/// `agent_test!` scenarios are code (they can interleave Rust between steps); this is the same
/// model as plain data, for scenarios loaded from files. It serialises to the documented JSON
/// form (`{"name", "description", "context", "history", "steps": [{"step": "user", "text",
/// "expect": [...]}], "expect": [...]}`); unknown fields are rejected.
///
/// ```
/// use agent_test::prelude::*;
/// use agent_test::Suite;
/// use agent_test::scenario::Scenario;
/// use agent_test::agent::agent_fn;
///
/// let scenario = Scenario::new("greeting")
///     .user("hi")
///     .expect_turn(reply().starts_with("hello"))
///     .expect(no_tools());
/// let json = serde_json::to_string(&scenario).unwrap();
/// let back: Scenario = serde_json::from_str(&json).unwrap();
/// assert_eq!(back, scenario);
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let report = scenario.run(Suite::new().agent(agent_fn(|_r| async { "Hello there!" }))).await;
/// assert!(report.passed());
/// # });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ScenarioData")]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// What it tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its tags, for filtering reports and runs (see `Suite::tags`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Context variables (override the suite's).
    #[serde(default, skip_serializing_if = "Context::is_empty")]
    pub context: Context,
    /// Prior history, shown to the agent before the first turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Message>,
    /// The steps, in order.
    #[serde(default)]
    pub steps: Vec<Step>,
    /// Checks on the whole conversation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Expectation>,
    /// Replace `${path}` in messages and request inputs with values of the variable bag
    /// (`var.<name>`, `steps.<id>.output`, `last.assistant`, `transcript`) when the scenario
    /// runs, as Lamdis does. Off by default: text is sent as written.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interpolate: bool,
    /// How many times the scenario runs (`repeat = 5;` in `agent_test!`; `"repeat": 5`), or up
    /// to how many, stopping as soon as the runs decide the gate (`"repeat": {"up_to": 100}`):
    /// each run a fresh agent and conversation, the report of them all with the pass rate, its
    /// interval, pass^k and pass@k. Unset: the suite's (once, unless the suite or `agent-test
    /// run --repeat` says otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<Runs>,
    /// How many of the runs must pass (default: all, unless a pass-rate gate decides).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_passes: Option<u32>,
    /// The pass rate the runs must show: its lower confidence bound must reach the rate —
    /// `0.9` (at 95 %), `[0.9, 0.95]` or `{"rate": 0.9, "confidence": 0.95}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_pass_rate: Option<MinPassRate>,
}

/// The data form of a [`Scenario`], read before the checks that concern the whole scenario.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioData {
    name: String,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    context: Context,
    #[serde(default)]
    history: Vec<Message>,
    #[serde(default)]
    steps: Vec<Step>,
    #[serde(default)]
    expect: Vec<Expectation>,
    #[serde(default)]
    interpolate: bool,
    #[serde(default)]
    repeat: Option<Runs>,
    #[serde(default)]
    min_passes: Option<u32>,
    #[serde(default)]
    min_pass_rate: Option<MinPassRate>,
}

impl TryFrom<ScenarioData> for Scenario {
    type Error = String;

    fn try_from(d: ScenarioData) -> Result<Self, String> {
        let s = Scenario {
            name: d.name,
            description: d.description,
            tags: d.tags,
            context: d.context,
            history: d.history,
            steps: d.steps,
            expect: d.expect,
            interpolate: d.interpolate,
            repeat: d.repeat,
            min_passes: d.min_passes,
            min_pass_rate: d.min_pass_rate,
        };
        match s.problem() {
            Some(problem) => Err(problem),
            None => Ok(s),
        }
    }
}

/// One step of a [`Scenario`].
///
/// ```
/// use agent_test::scenario::Step;
/// let s: Step = serde_json::from_str(r#"{"step": "system", "text": "Answer in French."}"#).unwrap();
/// assert_eq!(s, Step::System { text: "Answer in French.".into() });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case", deny_unknown_fields)]
// Exhaustive on purpose: the runtime (another crate) matches every variant, so that one
// added here is a compile error where it must be handled, not a wildcard's silence.
pub enum Step {
    /// A user message: the agent answers it; `expect` checks that turn.
    User {
        /// The message.
        text: String,
        /// A custom request body sent instead of the message (HTTP agents).
        #[serde(
            default,
            deserialize_with = "crate::model::present",
            skip_serializing_if = "Option::is_none"
        )]
        body: Option<Value>,
        /// Checks on this turn.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        expect: Vec<Expectation>,
    },
    /// A system message added before the next user message (no agent call).
    System {
        /// The message.
        text: String,
    },
    /// The judge's model extracts a described value from the last reply (or the whole
    /// transcript) into the variable `var.<name>` (see `ScenarioRun::extract`).
    Extract {
        /// The variable's name.
        name: String,
        /// What to extract.
        description: String,
        /// Read the whole transcript instead of the last reply.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        transcript: bool,
        /// The step's id: the value is also `steps.<id>.output`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
    /// A simulated user pursues an objective; `expect` checks every turn it plays (see
    /// `ScenarioRun::simulate`).
    Simulate {
        /// The objective.
        objective: String,
        /// At least this many turns.
        #[serde(default = "one")]
        min_turns: usize,
        /// At most this many turns.
        #[serde(default = "eight")]
        max_turns: usize,
        /// Keep talking after the objective is met.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        continue_after_pass: bool,
        /// Checks on every simulated turn.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        expect: Vec<Expectation>,
    },
    /// An HTTP request for setup or verification. `request` names a definition in the
    /// `requests` context variable (`{"accounts.create": {"method": "POST", "url": "http://..."}}`,
    /// or just a URL, posted to); `input` is its JSON body. The response's JSON is saved as
    /// `var.<save_as>` and as `steps.<id>.output`.
    Request {
        /// The request definition's name.
        request: String,
        /// The JSON body.
        #[serde(default, skip_serializing_if = "Value::is_null")]
        input: Value,
        /// The variable that keeps the response.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        save_as: Option<String>,
        /// The step's id, for `steps.<id>.output`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
    /// Checks placed at this point of the run: each sees the last turn so far (marked
    /// [`so_far`](crate::check::CheckExt::so_far): every turn so far); before any turn, the
    /// whole conversation.
    Expect {
        /// The checks.
        expect: Vec<Expectation>,
    },
    /// The variable bag's value at `path` must compare with `equals` as `op` says (by default
    /// JSON equality, numbers by value), checked at this point of the run — or, on a recording
    /// that kept the bag ([`Transcript::variables`](crate::model::Transcript::variables)), at
    /// this point of the recorded run.
    CheckVariable {
        /// The path in the bag (`var.status`, `steps.verify.output.status`).
        path: String,
        /// How the value compares (default: equals).
        #[serde(default, skip_serializing_if = "VariableOp::is_equals")]
        op: VariableOp,
        /// The value compared with (interpolated when the scenario interpolates; ignored by
        /// `exists` / `not_exists`).
        #[serde(default)]
        equals: Value,
        /// A label for the report.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        label: Option<String>,
        /// Report a failure without failing the test.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        warning: bool,
    },
}

/// How a [`Step::CheckVariable`] compares the bag's value (left) with its `equals` (right):
/// Lamdis's variable-check operators.
///
/// ```
/// use agent_test::scenario::VariableOp;
/// assert_eq!(VariableOp::default(), VariableOp::Equals);
/// assert_eq!(serde_json::to_value(VariableOp::GreaterOrEqual).unwrap(), "greater_or_equal");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
// Exhaustive on purpose: the runtime (another crate) matches every variant, so that one
// added here is a compile error where it must be handled, not a wildcard's silence.
pub enum VariableOp {
    /// JSON equality (numbers by value).
    #[default]
    Equals,
    /// Not JSON-equal (a missing value fails: there is nothing to compare).
    NotEquals,
    /// Equal as text, as Lamdis's `eq` compares: a string as itself, a number or boolean as
    /// JavaScript writes it (`1500` equals `"1500"`); an object or array equals the JSON value
    /// a text writes (in any key order and spacing); a missing value fails (there is nothing to
    /// compare).
    TextEquals,
    /// Not equal as text (the opposite of [`VariableOp::TextEquals`]; a missing value fails).
    TextNotEquals,
    /// Both numbers (or numeric text), left greater.
    GreaterThan,
    /// Both numbers (or numeric text), left greater or equal.
    GreaterOrEqual,
    /// Both numbers (or numeric text), left smaller.
    LessThan,
    /// Both numbers (or numeric text), left smaller or equal.
    LessOrEqual,
    /// Text containing the right side as text (case-sensitive), or a list with an element
    /// equal to it.
    Contains,
    /// The opposite of `contains` (a missing value fails).
    NotContains,
    /// The left side, as text, matches the regex on the right (Rust `regex` syntax).
    Matches,
    /// The value is present and not `null`.
    Exists,
    /// The value is absent or `null`.
    NotExists,
}

impl VariableOp {
    fn is_equals(&self) -> bool {
        *self == VariableOp::Equals
    }

    /// How reports say it: `equals`, `greater than`, ...
    ///
    /// ```
    /// # use agent_test::scenario::VariableOp;
    /// assert_eq!(VariableOp::NotContains.phrase(), "does not contain");
    /// ```
    pub fn phrase(self) -> &'static str {
        match self {
            // Text equality is said as Lamdis says it; how it differs is in the docs.
            VariableOp::Equals | VariableOp::TextEquals => "equals",
            VariableOp::NotEquals | VariableOp::TextNotEquals => "does not equal",
            VariableOp::GreaterThan => "is greater than",
            VariableOp::GreaterOrEqual => "is at least",
            VariableOp::LessThan => "is less than",
            VariableOp::LessOrEqual => "is at most",
            VariableOp::Contains => "contains",
            VariableOp::NotContains => "does not contain",
            VariableOp::Matches => "matches",
            VariableOp::Exists => "exists",
            VariableOp::NotExists => "does not exist",
        }
    }

    /// Whether the operator compares with a right side.
    #[doc(hidden)]
    pub fn has_right(self) -> bool {
        !matches!(self, VariableOp::Exists | VariableOp::NotExists)
    }
}

/// Why a scenario with no step and no check is refused.
#[doc(hidden)]
pub const EMPTY_SCENARIO: &str =
    "empty scenario: it has no steps and no checks, so it would test nothing";

fn one() -> usize {
    1
}

impl Step {
    /// The step's checks (a user turn's, or those after the turns).
    #[doc(hidden)]
    pub fn checks(&self) -> &[Expectation] {
        match self {
            Step::User { expect, .. } | Step::Expect { expect } => expect,
            _ => &[],
        }
    }

    /// The checks written in the step (a user turn's, an `expect` step's), to take them.
    fn checks_mut(&mut self) -> Option<&mut Vec<Expectation>> {
        match self {
            Step::User { expect, .. } | Step::Expect { expect } => Some(expect),
            _ => None,
        }
    }

    /// Why the step can never do what it says, if so (a simulation of at least 5 and at most
    /// 2 turns).
    pub(crate) fn problem(&self) -> Option<String> {
        match self {
            Step::Simulate {
                min_turns,
                max_turns,
                ..
            } => turns_problem(*min_turns, *max_turns),
            _ => None,
        }
    }
}

fn eight() -> usize {
    8
}

impl Scenario {
    /// An empty scenario.
    ///
    /// See the type's example.
    pub fn new(name: impl Into<String>) -> Self {
        Scenario {
            name: name.into(),
            description: None,
            tags: Vec::new(),
            context: Context::default(),
            history: Vec::new(),
            steps: Vec::new(),
            expect: Vec::new(),
            interpolate: false,
            repeat: None,
            min_passes: None,
            min_pass_rate: None,
        }
    }

    /// Runs the scenario `times` times (see the field `repeat`).
    ///
    /// ```
    /// use agent_test::scenario::Scenario;
    /// let s = Scenario::new("refund").user("refund please").repeat(20).min_pass_rate((0.8, 0.9));
    /// assert_eq!((s.repeat, s.min_pass_rate.unwrap().rate), (Some(20.into()), 0.8));
    /// assert_eq!(
    ///     Scenario::new("x").user("hi").repeat(5).min_passes(6).problem().unwrap(),
    ///     "impossible constraint at min_passes: min_passes = 6 can never be reached with repeat = 5"
    /// );
    /// ```
    pub fn repeat(mut self, runs: impl Into<Runs>) -> Self {
        self.repeat = Some(runs.into());
        self
    }

    /// How many of the runs must pass (see the field `min_passes`).
    ///
    /// See [`Scenario::repeat`].
    pub fn min_passes(mut self, runs: u32) -> Self {
        self.min_passes = Some(runs);
        self
    }

    /// The pass rate the runs must show (see the field `min_pass_rate`).
    ///
    /// See [`Scenario::repeat`].
    pub fn min_pass_rate(mut self, gate: impl Into<MinPassRate>) -> Self {
        self.min_pass_rate = Some(gate.into());
        self
    }

    /// Why the scenario's own repeat plan can never be met, with the field to blame.
    fn plan_problem(&self) -> Option<(&'static str, String)> {
        if self.repeat.is_none() && self.min_passes.is_none() && self.min_pass_rate.is_none() {
            return None;
        }
        let mut plan = Repeat {
            min_passes: self.min_passes,
            min_pass_rate: self.min_pass_rate,
            ..Repeat::default()
        };
        plan.runs(self.repeat.unwrap_or(Runs::Exactly(1)));
        let problem = plan.problem()?;
        let gateless = plan.min_pass_rate.is_none() && plan.min_passes.is_none();
        let at = match (plan.times, plan.min_passes) {
            (0, _) => "repeat",
            _ if plan.sequential && gateless => "repeat",
            (times, Some(m)) if m == 0 || m > times => "min_passes",
            _ => "min_pass_rate",
        };
        Some((at, problem))
    }

    /// Why the scenario cannot mean what it says, if so: it has no step and no check (it
    /// would test nothing), a tag is not a word or is listed twice, or a check or step has an
    /// impossible constraint (named by its
    /// place in the JSON form). Running such a scenario gives error verdicts; loading one from
    /// a file is an error at that place.
    ///
    /// ```
    /// # use agent_test::{scenario::Scenario, prelude::*};
    /// assert_eq!(Scenario::new("x").problem().unwrap(),
    ///            "empty scenario: it has no steps and no checks, so it would test nothing");
    /// assert!(Scenario::new("x").user("hi").problem().is_none());
    /// assert_eq!(Scenario::new("x").user("hi").expect_turn(tool("a").between(2, 1)).problem().unwrap(),
    ///            "impossible constraint at steps[0].expect[0].check: between(2, 1) can never pass: \
    ///             the minimum is greater than the maximum");
    /// ```
    pub fn problem(&self) -> Option<String> {
        if self.steps.is_empty() && self.expect.is_empty() {
            return Some(EMPTY_SCENARIO.to_owned());
        }
        if let Some(p) = ScenarioInfo::tags_problem(&self.tags) {
            return Some(p);
        }
        if let Some((at, p)) = self.plan_problem() {
            return Some(format!("{IMPOSSIBLE_AT}{at}: {p}"));
        }
        let checks = |expect: &[Expectation], at: String| {
            expect.iter().enumerate().find_map(|(j, e)| {
                e.check
                    .problem()
                    .map(|p| (format!("{at}expect[{j}].check"), p))
            })
        };
        let found = self
            .steps
            .iter()
            .enumerate()
            .find_map(|(i, step)| {
                let at = format!("steps[{i}]");
                if let Some(p) = step.problem() {
                    return Some((at, p));
                }
                match step {
                    Step::User { expect, .. }
                    | Step::Simulate { expect, .. }
                    | Step::Expect { expect } => checks(expect, format!("{at}.")),
                    _ => None,
                }
            })
            .or_else(|| checks(&self.expect, String::new()));
        found.map(|(at, p)| format!("{IMPOSSIBLE_AT}{at}: {p}"))
    }

    /// Adds tags (see `Suite::tags`).
    ///
    /// ```
    /// # use agent_test::scenario::Scenario;
    /// assert_eq!(Scenario::new("x").tagged(["billing"]).tags, ["billing"]);
    /// ```
    pub fn tagged<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Self {
        self.tags.extend(tags.into_iter().map(Into::into));
        self
    }

    /// Sets the description.
    ///
    /// ```
    /// # use agent_test::scenario::Scenario;
    /// assert_eq!(Scenario::new("x").described("why").description.as_deref(), Some("why"));
    /// ```
    pub fn described(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets a context variable.
    ///
    /// ```
    /// # use agent_test::scenario::Scenario;
    /// let s = Scenario::new("x").context("USER_ID", 12345);
    /// assert_eq!(s.context.get("USER_ID").unwrap(), 12345);
    /// ```
    pub fn context(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.context.insert(key, value);
        self
    }

    /// Adds prior history.
    ///
    /// ```
    /// # use agent_test::model::Message;
    /// # use agent_test::scenario::Scenario;
    /// let s = Scenario::new("x").history([Message::user("hi"), Message::assistant("hello")]);
    /// assert_eq!(s.history.len(), 2);
    /// ```
    pub fn history(mut self, messages: impl IntoIterator<Item = Message>) -> Self {
        self.history.extend(messages);
        self
    }

    /// Adds a system message step.
    ///
    /// ```
    /// # use agent_test::scenario::Scenario;
    /// assert_eq!(Scenario::new("x").system("be brief").steps.len(), 1);
    /// ```
    pub fn system(mut self, text: impl Into<String>) -> Self {
        self.steps.push(Step::System { text: text.into() });
        self
    }

    /// Adds a user turn.
    ///
    /// See the type's example.
    pub fn user(mut self, text: impl Into<String>) -> Self {
        self.steps.push(Step::User {
            text: text.into(),
            body: None,
            expect: Vec::new(),
        });
        self
    }

    /// Adds a check on the last user turn (on the conversation if there is none yet).
    ///
    /// See the type's example.
    pub fn expect_turn(mut self, check: impl IntoExpectation) -> Self {
        let e = check.into_expectation();
        match self.steps.iter_mut().rev().find_map(|s| match s {
            Step::User { expect, .. } => Some(expect),
            _ => None,
        }) {
            Some(expect) => expect.push(e),
            None => self.expect.push(e),
        }
        self
    }

    /// Adds a check on the whole conversation.
    ///
    /// See the type's example.
    pub fn expect(mut self, check: impl IntoExpectation) -> Self {
        self.expect.push(check.into_expectation());
        self
    }

    /// The scenario's checks with their scopes: a user step's checks see that turn (user steps
    /// are numbered from 0 in order), an `expect` step's the turn before it, the others the
    /// whole conversation. The checks of steps after a simulated user are left out: a
    /// recording cannot tell which turns are the simulation's (passive evaluation reports them
    /// as not evaluated).
    ///
    /// ```
    /// use agent_test::prelude::*;
    /// use agent_test::check::Scope;
    /// use agent_test::scenario::Scenario;
    /// let s = Scenario::new("x").user("a").user("b").expect_turn(no_tools()).expect(reply().contains("ok"));
    /// let scopes: Vec<Scope> = s.expectations().iter().map(|e| e.scope).collect();
    /// assert_eq!(scopes, [Scope::Turn(1), Scope::Conversation]);
    /// ```
    pub fn expectations(&self) -> Vec<Expectation> {
        self.clone().into_expectations()
    }

    /// [`Scenario::expectations`], taken out of the scenario rather than copied.
    #[doc(hidden)]
    pub fn into_expectations(mut self) -> Vec<Expectation> {
        let mut out = Vec::new();
        for (i, place) in self.check_places() {
            if let Some(expect) = self.steps.get_mut(i).and_then(Step::checks_mut) {
                out.extend(std::mem::take(expect).into_iter().map(|e| e.placed(place)));
            }
        }
        out.extend(
            self.expect
                .into_iter()
                .map(|e| e.placed(Scope::Conversation)),
        );
        out
    }

    /// Where the checks of each step apply: a user turn's on that turn, an `expect` step's on
    /// the turn before it (or the conversation, before any turn); steps after a simulated
    /// user are left out.
    fn check_places(&self) -> Vec<(usize, Scope)> {
        let mut out = Vec::new();
        let mut turn = 0;
        for (i, step) in self.steps.iter().enumerate() {
            match step {
                Step::User { .. } => {
                    out.push((i, Scope::Turn(turn)));
                    turn += 1;
                }
                Step::Expect { .. } => {
                    let place = match turn.checked_sub(1) {
                        Some(last) => Scope::Turn(last),
                        None => Scope::Conversation,
                    };
                    out.push((i, place));
                }
                Step::Simulate { .. } => break,
                _ => {}
            }
        }
        out
    }

    /// What reports say of the scenario: its name and description.
    ///
    /// ```
    /// # use agent_test::scenario::Scenario;
    /// assert_eq!(Scenario::new("refund").described("twice").info().description.as_deref(), Some("twice"));
    /// ```
    pub fn info(&self) -> ScenarioInfo {
        let mut info = ScenarioInfo::new(self.name.clone());
        info.description = self.description.clone();
        info.tags = self.tags.clone();
        info
    }
}

/// Why a simulation of at least `min` and at most `max` turns cannot run, if it cannot.
///
/// ```
/// # use agent_test::{prelude::*, simulated_user};
/// # use agent_test::{ScenarioRun, Suite};
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let mut run = ScenarioRun::new(Suite::new(), "x");
/// run.simulate(simulated_user("a refund").turns(5..=2), |_| {}).await;
/// let report = run.report().await;
/// assert_eq!(report.verdicts[0].reason, "impossible constraint: at least 5 and at most 2 \
///     turns can never be met: the minimum is greater than the maximum");
/// # });
/// ```
#[doc(hidden)]
pub fn turns_problem(min: usize, max: usize) -> Option<String> {
    if max == 0 {
        Some("at most 0 turns simulates nothing: the maximum must be at least 1".to_owned())
    } else if min > max {
        Some(format!(
            "at least {min} and at most {max} turns can never be met: the minimum is greater \
             than the maximum"
        ))
    } else {
        None
    }
}
