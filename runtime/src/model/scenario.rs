//! A scenario as data: the form data files and importers produce.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Context, Message};
use crate::check::{Expectation, IntoExpectation};
use crate::report::Report;
use crate::run::{ScenarioInfo, ScenarioRun, Suite};

/// A scenario as data: context, history, ordered steps with their turn checks, and checks on
/// the whole conversation.
///
/// `agent_test!` scenarios are code (they can interleave Rust between steps); this is the same
/// model as plain data, for scenarios loaded from files. It serialises to the documented JSON
/// form (`{"name", "description", "context", "history", "steps": [{"step": "user", "text",
/// "expect": [...]}], "expect": [...]}`); unknown fields are rejected.
///
/// ```
/// use agent_test_runtime::prelude::*;
/// use agent_test_runtime::model::Scenario;
/// use agent_test_runtime::agent::agent_fn;
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
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// What it tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
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
}

/// One step of a [`Scenario`].
///
/// ```
/// use agent_test_runtime::model::Step;
/// let s: Step = serde_json::from_str(r#"{"step": "system", "text": "Answer in French."}"#).unwrap();
/// assert_eq!(s, Step::System { text: "Answer in French.".into() });
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum Step {
    /// A user message: the agent answers it; `expect` checks that turn.
    User {
        /// The message.
        text: String,
        /// A custom request body sent instead of the message (HTTP agents).
        #[serde(default, skip_serializing_if = "Option::is_none")]
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
}

impl Scenario {
    /// An empty scenario.
    ///
    /// See the type's example.
    pub fn new(name: impl Into<String>) -> Self {
        Scenario {
            name: name.into(),
            description: None,
            context: Context::default(),
            history: Vec::new(),
            steps: Vec::new(),
            expect: Vec::new(),
        }
    }

    /// Sets the description.
    ///
    /// ```
    /// # use agent_test_runtime::model::Scenario;
    /// assert_eq!(Scenario::new("x").described("why").description.as_deref(), Some("why"));
    /// ```
    pub fn described(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets a context variable.
    ///
    /// ```
    /// # use agent_test_runtime::model::Scenario;
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
    /// # use agent_test_runtime::model::{Message, Scenario};
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
    /// # use agent_test_runtime::model::Scenario;
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
    /// are numbered from 0 in order), the others the whole conversation.
    ///
    /// ```
    /// use agent_test_runtime::prelude::*;
    /// use agent_test_runtime::model::Scenario;
    /// let s = Scenario::new("x").user("a").user("b").expect_turn(no_tools()).expect(reply().contains("ok"));
    /// let scopes: Vec<Scope> = s.expectations().iter().map(|e| e.scope).collect();
    /// assert_eq!(scopes, [Scope::Turn(1), Scope::Conversation]);
    /// ```
    pub fn expectations(&self) -> Vec<Expectation> {
        let mut out = Vec::new();
        let mut turn = 0;
        for step in &self.steps {
            if let Step::User { expect, .. } = step {
                out.extend(expect.iter().cloned().map(|mut e| {
                    e.scope = crate::check::Scope::Turn(turn);
                    e
                }));
                turn += 1;
            }
        }
        out.extend(self.expect.iter().cloned().map(|mut e| {
            e.scope = crate::check::Scope::Conversation;
            e
        }));
        out
    }

    /// Evaluates the scenario's checks on a recorded transcript, calling nothing (passive
    /// evaluation). The transcript's turns take the places of the scenario's user steps. To
    /// evaluate many transcripts, prepare the scenario once with [`Scenario::evaluator`].
    ///
    /// ```
    /// use agent_test_runtime::prelude::*;
    /// use agent_test_runtime::model::{Scenario, Transcript, Turn};
    /// let recorded = Transcript::new(vec![Turn::new(0, "hi", Reply::text("Hello!"), 30)]);
    /// let report = Scenario::new("greeting").user("hi").expect_turn(reply().starts_with("hello")).evaluate(&recorded);
    /// assert!(report.passed());
    /// ```
    pub fn evaluate(&self, transcript: &crate::model::Transcript) -> Report {
        self.evaluator().evaluate(transcript.clone())
    }

    /// Runs the scenario against the suite's agent and returns the report (also written as
    /// JSON; see [`Report`]).
    ///
    /// See the type's example.
    pub async fn run(&self, suite: Suite) -> Report {
        let mut info = ScenarioInfo::new(self.name.clone());
        info.description = self.description.clone();
        let mut run = ScenarioRun::with_info(suite, info);
        for (k, v) in self.context.iter() {
            run.context(k.clone(), v);
        }
        run.history(self.history.iter().cloned());
        for step in &self.steps {
            match step {
                Step::User { text, body, expect } => {
                    let input = match body {
                        Some(b) => crate::agent::custom_body(b.clone()),
                        None => text.clone().into(),
                    };
                    run.user(input).await;
                    for e in expect {
                        run.expect_turn(e.clone());
                    }
                }
                Step::System { text } => {
                    run.system(text.clone());
                }
            }
        }
        for e in &self.expect {
            run.expect(e.clone());
        }
        run.report().await
    }
}
