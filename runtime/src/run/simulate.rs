//! The simulated user: a model plays the user, pursuing an objective for a number of turns,
//! with checks after every turn (Lamdis's `user_objective`).

use std::ops::RangeInclusive;

use serde_json::{Value, json};

use super::ScenarioRun;
use agent_test_core::check::Outcome;
use agent_test_core::scenario::turns_problem;
use agent_test_network::judge::JudgePrompt;

/// A user played by the judge's model: an objective, an optional persona, and how many turns
/// it may take (default 1..=8). It stops as soon as it judges the objective met (after the
/// minimum), unless asked to [continue after that](SimulatedUser::continue_after_pass).
///
/// ```
/// use agent_test::simulated_user;
/// let user = simulated_user("get a refund for the double charge on ORD-9921")
///     .persona("an impatient customer who writes short messages")
///     .turns(2..=6);
/// # let _ = user;
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimulatedUser {
    objective: String,
    persona: Option<String>,
    min_turns: usize,
    max_turns: usize,
    continue_after_pass: bool,
}

/// A simulated user pursuing `objective` (see [`SimulatedUser`]).
///
/// See [`SimulatedUser`].
pub fn simulated_user(objective: impl Into<String>) -> SimulatedUser {
    SimulatedUser {
        objective: objective.into(),
        persona: None,
        min_turns: 1,
        max_turns: 8,
        continue_after_pass: false,
    }
}

impl From<&str> for SimulatedUser {
    fn from(objective: &str) -> Self {
        simulated_user(objective)
    }
}

impl From<String> for SimulatedUser {
    fn from(objective: String) -> Self {
        simulated_user(objective)
    }
}

impl SimulatedUser {
    /// Who the user is and how they write.
    ///
    /// See the type's example.
    pub fn persona(mut self, persona: impl Into<String>) -> Self {
        self.persona = Some(persona.into());
        self
    }

    /// At least and at most this many turns (default `1..=8`). An empty range (`5..=2`,
    /// `0..=0`) is an impossible constraint: the simulation gives an error verdict instead of
    /// running.
    ///
    /// See the type's example.
    pub fn turns(mut self, turns: RangeInclusive<usize>) -> Self {
        self.min_turns = *turns.start();
        self.max_turns = *turns.end();
        self
    }

    /// Keep talking until the maximum number of turns even once the objective is met
    /// (Lamdis's `continueAfterPass`).
    ///
    /// ```
    /// # use agent_test::simulated_user;
    /// let user = simulated_user("book a hotel in Lisbon").turns(3..=3).continue_after_pass();
    /// # let _ = user;
    /// ```
    pub fn continue_after_pass(mut self) -> Self {
        self.continue_after_pass = true;
        self
    }
}

const INSTRUCTIONS: &str = "\
You play the user in a conversation with an AI agent, for an automated test.
You receive JSON with your `objective`, your `persona` (if any) and the `conversation` so far.
Decide first whether the objective has been fully achieved by the conversation so far, then
write your next message: short, natural, in character, pursuing the objective; never reveal
that you are simulated. Answer with JSON only:
{\"objective_met\": true|false, \"message\": \"your next message\"}";

impl ScenarioRun {
    /// Lets the judge's model play the user (`simulate <user> { checks }` in `agent_test!`):
    /// each turn it writes the next message, the agent answers, and `after_each_turn` adds the
    /// checks for that turn. The run records a verdict "simulated user reached the objective"
    /// (failed when it did not within the maximum turns) and, when no message can be had (no
    /// judge, a failing model), an error verdict saying why; the run then goes on.
    ///
    /// ```
    /// # use agent_test::prelude::*;
    /// # use agent_test::{ScenarioRun, Suite};
    /// # use agent_test::judge::{Judge, JudgeMode};
    /// # use agent_test::{agent::{agent_fn, BoxFuture}, simulated_user};
    /// # use agent_test::judge::{Completion, JudgeModel, JudgePrompt, ModelError};
    /// /// Asks for a refund, then is satisfied once the agent mentions one.
    /// struct Customer;
    /// impl JudgeModel for Customer {
    ///     fn id(&self) -> String { "customer".into() }
    ///     fn complete<'a>(&'a self, p: &'a JudgePrompt) -> BoxFuture<'a, Result<Completion, ModelError>> {
    ///         let met = p.user.contains("RF-");
    ///         Box::pin(async move {
    ///             Ok(Completion { text: serde_json::json!({"objective_met": met, "message": "Refund ORD-1 please"}).to_string(), usage: None })
    ///         })
    ///     }
    /// }
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let suite = Suite::new()
    ///     .agent(agent_fn(|_r| async { "Refund RF-7 issued." }))
    ///     .judge(Judge::new(Customer).mode(JudgeMode::Off));
    /// let mut run = ScenarioRun::new(suite, "refund");
    /// run.simulate(simulated_user("get a refund"), |run| {
    ///     run.expect_turn(reply().contains("refund"));
    /// })
    /// .await;
    /// let report = run.report().await;
    /// assert!(report.passed(), "{report}");
    /// assert_eq!(report.transcript.turns.len(), 1);
    /// # });
    /// ```
    pub async fn simulate(
        &mut self,
        user: impl Into<SimulatedUser>,
        mut after_each_turn: impl FnMut(&mut ScenarioRun),
    ) {
        let user = user.into();
        // An impossible repeat plan runs nothing, no model call included.
        if self.plan_refused() {
            return;
        }
        let label = super::step_verdict::objective_label(&user.objective);
        if let Some(problem) = turns_problem(user.min_turns, user.max_turns) {
            self.step_error(
                label,
                "simulate",
                format!("impossible constraint: {problem}"),
            );
            return;
        }
        let Some(judge) = self.llm_for_steps() else {
            self.step_error(
                label,
                "simulate",
                "no model to play the user: set `judge = ...;` (its model plays the user) or \
                 AGENT_TEST_JUDGE_MODEL"
                    .to_owned(),
            );
            return;
        };
        let mut met_at: Option<usize> = None;
        let mut turns = 0;
        loop {
            let prompt = JudgePrompt {
                system: INSTRUCTIONS.to_owned(),
                user: json!({
                    "objective": user.objective,
                    "persona": user.persona,
                    "conversation": self.transcript.messages(),
                })
                .to_string(),
                schema: json!({
                    "type": "object",
                    "properties": {"objective_met": {"type": "boolean"}, "message": {"type": "string"}},
                    "required": ["objective_met", "message"],
                    "additionalProperties": false
                }),
            };
            let cassette = self.cassette.clone();
            let (answer, usage, notes) = cassette
                .scope(judge.ask_json_noted(
                    "simulate",
                    &prompt,
                    self.info.repeat,
                    &["objective_met"],
                ))
                .await;
            self.add_step_usage(usage);
            self.add_step_notes(notes);
            let answer = match answer {
                Ok(a) => a,
                Err(e) => {
                    self.step_error(label, "simulate", format!("the simulated user failed: {e}"));
                    return;
                }
            };
            if turns > 0
                && answer.get("objective_met").and_then(Value::as_bool) == Some(true)
                && met_at.is_none()
            {
                met_at = Some(turns);
            }
            let done = turns >= user.max_turns
                || (met_at.is_some() && turns >= user.min_turns && !user.continue_after_pass);
            if done {
                break;
            }
            let message = answer
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .trim()
                .to_owned();
            if message.is_empty() {
                self.step_error(
                    label,
                    "simulate",
                    format!("the simulated user wrote no message: {answer}"),
                );
                return;
            }
            self.user(message).await;
            turns += 1;
            after_each_turn(self);
        }
        let outcome = match met_at {
            Some(t) => Outcome::pass(format!(
                "met after {t} turn{}",
                if t == 1 { "" } else { "s" }
            )),
            None => Outcome::fail(format!(
                "not met within {} turn{}",
                user.max_turns,
                if user.max_turns == 1 { "" } else { "s" }
            )),
        };
        self.step_verdict(label, "simulate", outcome);
    }
}
