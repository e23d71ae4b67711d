//! The framework corpus (`tests/fixtures/frameworks/`): traces the agent frameworks' own
//! instrumentation exported while each ran the same travel agent against a scripted model,
//! with the ground truth of what really ran (`truth.json`, written by the tools themselves)
//! and what the test expects beyond it (`expect.json`). Shared by the runtime's tests (the
//! Rust API) and the command line's (`agent-test eval`).

#![allow(dead_code)] // each including test binary uses its part

use std::path::PathBuf;

use agent_test_runtime::check::Expectation;
use agent_test_runtime::check::Scope;
use agent_test_runtime::prelude::*;
use agent_test_runtime::scenario::Scenario;
use serde_json::Value;

/// One framework's entry.
pub struct Entry {
    pub name: String,
    pub dir: PathBuf,
    pub trace: Value,
    pub truth: Value,
    pub expect: Value,
}

/// The corpus directory.
pub fn root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // From the runtime crate or the CLI crate beside it.
    let runtime = if here.ends_with("runtime") {
        here
    } else {
        here.parent().expect("the workspace").join("runtime")
    };
    runtime.join("tests/fixtures/frameworks")
}

/// Every entry with a trace, by name.
pub fn entries() -> Vec<Entry> {
    let root = root();
    let read = |p: PathBuf| -> Value {
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}")))
            .unwrap_or_else(|e| panic!("{p:?}: {e}"))
    };
    let expect_all = read(root.join("expect.json"));
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .expect("the corpus")
        .filter_map(Result::ok)
        .filter(|e| e.path().join("trace.json").exists())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let dir = root.join(&name);
            let expect = expect_all
                .get(&name)
                .cloned()
                .unwrap_or_else(|| panic!("expect.json has no entry `{name}`"));
            Entry {
                trace: read(dir.join("trace.json")),
                truth: read(dir.join("truth.json")),
                expect,
                name,
                dir,
            }
        })
        .collect()
}

impl Entry {
    /// Whether the entry's spans do not carry `part` (`arguments`, `results`, `outcomes`,
    /// `usage`, `reply`, `sub_agents`).
    pub fn lacks(&self, part: &str) -> bool {
        self.expect["limits"]
            .as_array()
            .is_some_and(|l| l.iter().any(|p| p == part))
    }

    /// The name the model gave a story tool.
    pub fn tool(&self, name: &str) -> String {
        self.expect["tool_names"][name]
            .as_str()
            .unwrap_or(name)
            .to_owned()
    }

    /// The tool the model called to reach the concierge.
    pub fn delegation(&self) -> String {
        self.truth["delegation_tool"]
            .as_str()
            .expect("truth.json names the delegation tool")
            .to_owned()
    }

    /// Whether the delegation is a tool call (else only the sub-agent's node).
    pub fn delegation_is_a_call(&self) -> bool {
        self.expect["delegation"].as_str() != Some("agent")
    }

    /// Tools the framework itself adds (smolagents' `final_answer`).
    pub fn framework_tools(&self) -> Vec<String> {
        self.expect["framework_tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    }

    /// How many user turns the story has (2 for the entries made with `two_turns()`).
    pub fn turns(&self) -> usize {
        self.truth["turns"].as_u64().map_or(1, |n| n as usize)
    }

    /// The tool executions of turn `turn` (0-based).
    pub fn executions(&self, turn: usize) -> Vec<&Value> {
        self.truth["executions"]
            .as_array()
            .expect("executions")
            .iter()
            .filter(|x| x["turn"].as_u64().map_or(0, |t| t as usize - 1) == turn)
            .collect()
    }

    /// The reply the framework returned on turn `turn` (0-based).
    pub fn reply_of(&self, turn: usize) -> String {
        let key = if turn == 0 { "reply" } else { "second_reply" };
        self.truth[key]
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_owned()
    }

    /// The user's message on turn `turn` (0-based).
    pub fn user_of(&self, turn: usize) -> String {
        let key = if turn == 0 { "user" } else { "second_user" };
        self.truth[key].as_str().unwrap_or_default().to_owned()
    }

    /// Total tokens the scripted model reported.
    pub fn total_tokens(&self) -> u64 {
        self.truth["input_tokens"].as_u64().unwrap_or(0)
            + self.truth["output_tokens"].as_u64().unwrap_or(0)
    }

    /// The reply the framework returned.
    pub fn reply(&self) -> String {
        self.truth["reply"]
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_owned()
    }

    /// The checks that hold for what really ran, each with what it reads.
    fn checks(&self) -> Vec<(Expectation, &'static [&'static str])> {
        let t = |n: &str| self.tool(n);
        let list: Vec<(Expectation, &'static [&'static str])> = vec![
            (
                tool(t("search_hotels"))
                    .arg("city", "Lisbon")
                    .arg("nights", 2)
                    .times(1)
                    .into_expectation(),
                &["arguments"],
            ),
            (tool(t("get_weather")).times(1).into_expectation(), &[]),
            (tool(t("book_hotel")).times(2).into_expectation(), &[]),
            (
                tool(t("book_hotel"))
                    .arg("hotel_id", "HTL-205")
                    .failed()
                    .times(1)
                    .into_expectation(),
                &["arguments", "outcomes"],
            ),
            (
                tool(t("book_hotel"))
                    .arg("hotel_id", "HTL-311")
                    .succeeded()
                    .result_json_path("$.booking_id", "BK-311")
                    .into_expectation(),
                &["arguments", "outcomes", "results"],
            ),
            (
                tool_sequence([
                    t("search_hotels"),
                    t("book_hotel"),
                    t("book_hotel"),
                    t("find_restaurants"),
                ])
                .into_expectation(),
                &[],
            ),
            (tool(t("find_restaurants")).times(1).into_expectation(), &[]),
            (
                agent_invoked(["concierge"]).into_expectation(),
                &["sub_agents"],
            ),
            (reply().contains("BK-311").into_expectation(), &["reply"]),
            (
                tokens()
                    .total_at_most(self.total_tokens())
                    .into_expectation(),
                &["usage"],
            ),
        ];
        list.into_iter().chain(self.second_turn_checks()).collect()
    }

    /// What holds of a two-turn story's second turn: `list_bookings`, a tool without
    /// arguments, called there once and not on the first turn.
    fn second_turn_checks(&self) -> Vec<(Expectation, &'static [&'static str])> {
        if self.turns() < 2 {
            return Vec::new();
        }
        let t = |n: &str| self.tool(n);
        let mut first_turn = no_tool(t("list_bookings")).into_expectation();
        first_turn.scope = Scope::Turn(0);
        let mut second_turn = tool(t("list_bookings"))
            .arguments(serde_json::json!({}))
            .times(1)
            .into_expectation();
        second_turn.scope = Scope::Turn(1);
        let mut second_reply = reply().contains("BK-311").into_expectation();
        second_reply.scope = Scope::Turn(1);
        vec![
            (first_turn, &[][..]),
            (second_turn, &["arguments"][..]),
            (
                tool(t("list_bookings")).times(1).into_expectation(),
                &[][..],
            ),
            (second_reply, &["reply"][..]),
        ]
    }

    /// The checks a reading that got the run wrong would pass: each must fail.
    fn wrong(&self) -> Vec<(Expectation, &'static [&'static str])> {
        let t = |n: &str| self.tool(n);
        let list: Vec<(Expectation, &'static [&'static str])> = vec![
            (
                tool(t("search_hotels"))
                    .arg("city", "Porto")
                    .into_expectation(),
                &["arguments"],
            ),
            (
                tool(t("book_hotel"))
                    .arg("hotel_id", "HTL-205")
                    .succeeded()
                    .into_expectation(),
                &["arguments", "outcomes"],
            ),
            (tool(t("search_hotels")).times(2).into_expectation(), &[]),
            (tool(t("book_hotel")).times(1).into_expectation(), &[]),
            (no_tool_errors().into_expectation(), &["outcomes"]),
            (agent_invoked(["agent"]).into_expectation(), &[]),
            (reply().contains("Porto").into_expectation(), &["reply"]),
            (
                tokens()
                    .total_at_most(self.total_tokens() - 1)
                    .into_expectation(),
                &["usage"],
            ),
        ];
        let second: Option<(Expectation, &'static [&'static str])> =
            (self.turns() > 1).then(|| (no_tool(t("list_bookings")).into_expectation(), &[][..]));
        list.into_iter().chain(second).collect()
    }

    /// A scenario of the story's user turns with `checks`: those scoped to a turn on it, the
    /// others on the conversation.
    fn scenario(&self, suffix: &str, checks: impl IntoIterator<Item = Expectation>) -> Scenario {
        let checks: Vec<Expectation> = checks.into_iter().collect();
        let mut s = Scenario::new(format!("{}_{suffix}", self.name.replace('-', "_")));
        for turn in 0..self.turns() {
            s = s.user(self.user_of(turn));
            for e in checks.iter().filter(|e| e.scope == Scope::Turn(turn)) {
                s = s.expect_turn(e.clone());
            }
        }
        checks
            .into_iter()
            .filter(|e| !matches!(e.scope, Scope::Turn(_)))
            .fold(s, Scenario::expect)
    }

    /// The scenario of what really ran: every check on what the spans carry passes.
    pub fn passing(&self) -> Scenario {
        let checks = self
            .checks()
            .into_iter()
            .filter(|(_, reads)| !reads.iter().any(|p| self.lacks(p)));
        self.scenario("passing", checks.map(|(e, _)| e))
    }

    /// One scenario per wrong claim (each must fail, never pass or error).
    pub fn failing(&self) -> Vec<Scenario> {
        self.wrong()
            .into_iter()
            .filter(|(_, reads)| !reads.iter().any(|p| self.lacks(p)))
            .enumerate()
            .map(|(i, (e, _))| self.scenario(&format!("failing_{i}"), [e]))
            .collect()
    }

    /// The checks on what the spans do not carry: each must be an error, never a pass or a
    /// failure.
    pub fn unknowable(&self) -> Scenario {
        let checks = self
            .checks()
            .into_iter()
            .chain(self.wrong())
            .filter(|(_, reads)| reads.iter().any(|p| self.lacks(p) && *p != "sub_agents"));
        self.scenario("unknowable", checks.map(|(e, _)| e))
    }
}
