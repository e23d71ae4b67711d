//! Lamdis tests (JSON): one test (`{"id", "name", "steps"}`), an array, or `{"tests": [...]}`.
//!
//! The steps run in order over Lamdis's variable bag: `${path}` (and `$steps.<id>.output...`)
//! in messages and request inputs read `var.<name>`, `steps.<id>.output`, `last.assistant` and
//! `transcript`; a leading `$.` or `$` is dropped and a leading `bag.` names the bag itself; a
//! missing value is the empty string; an empty placeholder `${}` stays as written.
//!
//! | Lamdis step | agent-test |
//! |---|---|
//! | `message` (`role: user` / `system`, `content`) | a user turn / a system message, interpolated |
//! | `request` (`requestId`, `inputMappings`, `saveAs`, `id`) | [`Step::Request`]: the definition named `requestId` in the `requests` context variable, with `inputMappings` (interpolated) as its JSON body; the response becomes `var.<saveAs>` and `steps.<id>.output` |
//! | `assistant_check`, `mode: includes` (a list, or one comma-separated string) | one case-insensitive [`contains`](agent_test_core::check::Text::contains) per trimmed keyword, on the [`conversation`] (`scope: transcript`, the default: every message, the user's too) or on the [`reply`] of the last turn (`scope: last`); no keyword left: the step is skipped, with why |
//! | `assistant_check`, `mode: judge` (`rubric`, `threshold` (0.75), `scope`) | [`judge`]`(rubric).threshold(t)`, on the last turn or [`on_transcript`](agent_test_core::check::JudgeCheck::on_transcript); an empty rubric: the step is skipped |
//! | `assistant_check`, `mode: variable_check` (`variablePath`, `operator`, `rightValue` / `expectEquals`) | [`Step::CheckVariable`] with its [`VariableOp`] (`eq` and `neq` compare as text, as Lamdis's engine does: `1500` equals `"1500"`; `gt`, `gte`, `lt`, `lte`, `contains`, `not_contains`, `regex`, `exists`, `not_exists`), the right value interpolated, at that point of the run (or of a recording that kept the bag); the path is read from the bag's root, where `lastAssistant` and `lastUser` are too; an unknown operator is refused where the file is read (Lamdis would compare it as text equality) |
//! | `severity: warning` / `error` (default) | [`warning`](agent_test_core::check::CheckExt::warning): reported, never fails the test |
//! | `name` | the check's label |
//! | `user_objective` (`description`, `minTurns`, `maxTurns` (8), `iterativeConversation`, `continueAfterPass`, `attachedChecks`) | [`Step::Simulate`]: the judge's model plays the user; the attached checks run on every turn |
//! | `extract` (`variableName`, `description`, `scope` (`last`), `id`) | [`Step::Extract`] into `var.<variableName>` |
//! | the test's `id` | the `extra` context variable (`{"id": ...}`), shown in reports |
//!
//! A check sees the conversation as it stands at its place. A check before any message is an
//! error (there is no reply to check). The `name` of `message`, `request`, `extract` and
//! `user_objective` steps, and the `id` of `message`, `assistant_check` and `user_objective`
//! steps, only label steps in Lamdis's own interface and change nothing here.
//!
//! ```
//! use agent_test::scenario::RunScenario;
//! use agent_test::{formats::SeedFormat, load};
//! use agent_test::model::{Reply, Transcript, Turn};
//! let text = r#"{"id": "risk", "name": "Risk warning", "steps": [
//!   {"type": "message", "role": "user", "content": "Should I put everything in one stock?"},
//!   {"type": "assistant_check", "mode": "includes", "scope": "last", "includes": ["risk", " diversify "]}
//! ]}"#;
//! let case = load::cases_from_text(text, "risk.json", Some(SeedFormat::Lamdis)).unwrap().remove(0);
//! let reply = Reply::text("That carries a lot of RISK; diversify.");
//! let report = case.scenario.evaluate(&Transcript::new(vec![Turn::new(0, "q", reply, 5)]));
//! assert!(report.passed(), "{report}");
//! ```

use std::path::Path;

use serde_json::{Map, Value};

use super::ImportedCase;
use super::read::{
    Problem, array, closed, index, join, kind, named_scenario, object, open_object, opt_bool,
    opt_string, opt_tag, opt_threshold, opt_u64, required, string, strings, tag,
};
use agent_test_core::check::{
    CheckExt, Expectation, IntoExpectation, Outcome, check as custom, conversation, judge, reply,
};
use agent_test_core::scenario::{Scenario, Step, VariableOp};
use agent_test_core::util::input::LoadError;

/// A bound on a simulated conversation's length, so a file cannot order unbounded model calls.
const MAX_SIMULATED_TURNS: u64 = 50;

const TEST_FIELDS: &[&str] = &["id", "name", "description", "steps"];
const STEP_TYPES: &[&str] = &[
    "message",
    "request",
    "assistant_check",
    "user_objective",
    "extract",
];

pub(crate) fn from_value(doc: &Value, file: &Path) -> Result<Vec<ImportedCase>, LoadError> {
    super::read::cases(doc, file, Some("tests"), test)
}

/// Whether a document looks like Lamdis tests.
pub(crate) fn detect(v: &Value) -> bool {
    let one = |v: &Value| {
        // Non-empty, and every step typed: agent-test's own scenarios tag steps with `step`.
        v.get("steps").and_then(Value::as_array).is_some_and(|s| {
            !s.is_empty()
                && s.iter()
                    .all(|s| s.get("type").is_some() && s.get("step").is_none())
        })
    };
    super::read::first_case(v, Some("tests")).is_some_and(one)
}

fn test(v: &Value, at: &str, default_name: String) -> Result<Scenario, Problem> {
    let o = object(v, at, TEST_FIELDS)?;
    let mut scenario = named_scenario(o, at, default_name)?;
    scenario.interpolate = true;
    let steps_at = join(at, "steps");
    let steps = match required(o, "steps", at)? {
        Value::Array(s) => s,
        other => {
            return Err((
                steps_at,
                format!("expected a list of steps, got {}", kind(other)),
            ));
        }
    };
    for (i, s) in steps.iter().enumerate() {
        step(&mut scenario, s, &index(&steps_at, i))?;
    }
    Ok(scenario)
}

fn step(scenario: &mut Scenario, v: &Value, at: &str) -> Result<(), Problem> {
    let o = open_object(v, at)?;
    match tag(o, "type", at, STEP_TYPES)? {
        "message" => {
            let o = object(v, at, &["type", "role", "content", "id", "name"])?;
            let content = string(o, "content", at)?;
            match opt_string(o, "role", at)?.as_deref() {
                None | Some("user") => scenario.steps.push(Step::User {
                    text: content,
                    body: None,
                    expect: Vec::new(),
                }),
                Some("system") => scenario.steps.push(Step::System { text: content }),
                Some(other) => {
                    return Err((
                        join(at, "role"),
                        format!("expected `user` or `system`, got `{other}`"),
                    ));
                }
            }
        }
        "request" => {
            let o = object(
                v,
                at,
                &["type", "requestId", "inputMappings", "saveAs", "id", "name"],
            )?;
            scenario.steps.push(Step::Request {
                request: string(o, "requestId", at)?,
                input: o.get("inputMappings").cloned().unwrap_or(Value::Null),
                save_as: opt_string(o, "saveAs", at)?,
                id: opt_string(o, "id", at)?,
            });
        }
        "assistant_check" => assistant_check(scenario, o, at)?,
        "user_objective" => scenario.steps.push(user_objective(v, at)?),
        _ => scenario.steps.push(variable_step(v, at)?),
    }
    Ok(())
}

/// A `user_objective` step: a simulated user pursuing the objective for a number of turns,
/// with the checks attached to each of its turns. Nothing is adjusted: a count that cannot be
/// met is an error, not another count.
fn user_objective(v: &Value, at: &str) -> Result<Step, Problem> {
    let o = object(
        v,
        at,
        &[
            "type",
            "description",
            "minTurns",
            "maxTurns",
            "iterativeConversation",
            "continueAfterPass",
            "attachedChecks",
            "id",
            "name",
        ],
    )?;
    let objective = string(o, "description", at)?;
    // Nothing is adjusted: a count that cannot be met is an error, not another count.
    let min = opt_u64(o, "minTurns", at)?.unwrap_or(1);
    if min == 0 {
        return Err((
            join(at, "minTurns"),
            "expected at least 1 (a conversation has a turn), got 0".into(),
        ));
    }
    let iterative = opt_bool(o, "iterativeConversation", at)?.unwrap_or(true);
    let max = match opt_u64(o, "maxTurns", at)? {
        Some(_) if !iterative => {
            return Err((
                join(at, "maxTurns"),
                "a conversation with `iterativeConversation: false` has one turn: \
                 remove `maxTurns`"
                    .into(),
            ));
        }
        Some(max) => max,
        None if iterative => 8,
        None => 1,
    };
    if min > max {
        let (key, why) = if iterative {
            ("minTurns", format!("at most {max} turns (`maxTurns`)"))
        } else {
            (
                "minTurns",
                "one turn (`iterativeConversation: false`)".to_owned(),
            )
        };
        return Err((
            join(at, key),
            format!("{min} turns can never be met in {why}"),
        ));
    }
    if max > MAX_SIMULATED_TURNS {
        return Err((
            join(at, "maxTurns"),
            format!("at most {MAX_SIMULATED_TURNS} turns (each is a model call), got {max}"),
        ));
    }
    let checks_at = join(at, "attachedChecks");
    let mut expect = Vec::new();
    for (i, c) in array(o, "attachedChecks", at)?.iter().enumerate() {
        let here = index(&checks_at, i);
        let co = open_object(c, &here)?;
        tag(co, "type", &here, &["assistant_check"])?;
        match check(co, &here)? {
            Checked::Turn(e) => expect.extend(e),
            Checked::Conversation(e) => expect.extend(e.into_iter().map(CheckExt::so_far)),
            Checked::Variable(..) => {
                return Err((
                    join(&here, "mode"),
                    "attached checks grade each simulated turn: expected `judge` or `includes`"
                        .into(),
                ));
            }
        }
    }
    Ok(Step::Simulate {
        objective,
        min_turns: usize::try_from(min).unwrap_or(usize::MAX),
        max_turns: usize::try_from(max).unwrap_or(usize::MAX),
        continue_after_pass: opt_bool(o, "continueAfterPass", at)?.unwrap_or(false),
        expect,
    })
}

/// A variable extraction step (`variableName`, `description`, `scope`).
fn variable_step(v: &Value, at: &str) -> Result<Step, Problem> {
    let o = object(
        v,
        at,
        &["type", "variableName", "description", "scope", "id", "name"],
    )?;
    let name = string(o, "variableName", at)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err((
            join(at, "variableName"),
            format!("expected letters, digits and underscores only, got `{name}`"),
        ));
    }
    let transcript = opt_tag(o, "scope", at, &["last", "transcript"])? == Some("transcript");
    Ok(Step::Extract {
        name,
        description: string(o, "description", at)?,
        transcript,
        id: opt_string(o, "id", at)?,
    })
}

/// An `assistant_check` as what it becomes.
enum Checked {
    /// Checks on the last turn (`scope: last`).
    Turn(Vec<Expectation>),
    /// Checks on the whole conversation (`scope: transcript`).
    Conversation(Vec<Expectation>),
    /// A variable check: path, operator, compared value, label, warning.
    Variable(String, VariableOp, Value, Option<String>, bool),
}

fn assistant_check(
    scenario: &mut Scenario,
    o: &Map<String, Value>,
    at: &str,
) -> Result<(), Problem> {
    let (checks, so_far) = match check(o, at)? {
        Checked::Turn(e) => (e, false),
        Checked::Conversation(e) => (e, true),
        Checked::Variable(path, op, equals, label, warning) => {
            scenario.steps.push(Step::CheckVariable {
                path,
                op,
                equals,
                label,
                warning,
            });
            return Ok(());
        }
    };
    // A check sees the conversation as it stands at its place: the last turn (`last`) or every
    // turn so far (`transcript`).
    let checks: Vec<Expectation> = if so_far {
        checks.into_iter().map(CheckExt::so_far).collect()
    } else {
        checks
    };
    let last_turn = scenario.steps.iter_mut().rev().find_map(|s| match s {
        Step::User { expect, .. } => Some(Some(expect)),
        Step::Simulate { .. } => Some(None),
        _ => None,
    });
    match last_turn {
        Some(Some(expect)) => expect.extend(checks),
        // After a simulated user: the turns are the simulation's, known only as it runs.
        Some(None) => scenario.steps.push(Step::Expect { expect: checks }),
        None => {
            return Err((
                at.to_owned(),
                "an assistant_check before any message has no reply to check".into(),
            ));
        }
    }
    Ok(())
}

/// Lamdis's variable-check operators, with the spellings read for each.
const OPERATORS: &[&str] = &[
    "eq",
    "neq",
    "gt",
    "gte",
    "lt",
    "lte",
    "contains",
    "not_contains",
    "regex",
    "exists",
    "not_exists",
];

/// The operator a spelling names, if any.
fn operator(name: &str) -> Option<VariableOp> {
    Some(match name.trim().to_ascii_lowercase().as_str() {
        // Lamdis compares `eq` and `neq` as text: `1500` equals `"1500"`.
        "eq" | "equals" | "equal" | "==" | "===" => VariableOp::TextEquals,
        "neq" | "ne" | "not_equals" | "not_equal" | "!=" | "!==" => VariableOp::TextNotEquals,
        "gt" | ">" | "greater_than" => VariableOp::GreaterThan,
        "gte" | ">=" | "greater_than_or_equal" | "greater_or_equal" => VariableOp::GreaterOrEqual,
        "lt" | "<" | "less_than" => VariableOp::LessThan,
        "lte" | "<=" | "less_than_or_equal" | "less_or_equal" => VariableOp::LessOrEqual,
        "contains" | "includes" => VariableOp::Contains,
        "not_contains" | "not_includes" | "does_not_contain" => VariableOp::NotContains,
        "regex" | "matches" => VariableOp::Matches,
        "exists" => VariableOp::Exists,
        "not_exists" | "notexists" => VariableOp::NotExists,
        _ => return None,
    })
}

/// Lamdis's default judge threshold (its judge service: 0.75, not agent-test's 0.8).
const JUDGE_THRESHOLD: f64 = 0.75;

fn check(o: &Map<String, Value>, at: &str) -> Result<Checked, Problem> {
    let mode = tag(o, "mode", at, &["judge", "includes", "variable_check"])?;
    let fields: &[&str] = match mode {
        "judge" => &["rubric", "threshold", "scope"],
        "includes" => &["includes", "scope"],
        _ => &["variablePath", "expectEquals", "operator", "rightValue"],
    };
    let mut allowed = vec!["type", "mode", "name", "severity", "id"];
    allowed.extend(fields);
    let o = closed(o, at, &allowed)?;
    let warning = opt_tag(o, "severity", at, &["error", "warning"])? == Some("warning");
    let label = opt_string(o, "name", at)?;
    if mode == "variable_check" {
        return variable_check(o, at, label, warning);
    }
    // Lamdis checks read the transcript unless told `last`.
    let transcript = opt_tag(o, "scope", at, &["last", "transcript"])? != Some("last");
    let finish = |mut e: Expectation| {
        if warning {
            e = e.warning();
        }
        if let Some(l) = &label {
            e = e.label(l.clone());
        }
        e
    };
    // A step Lamdis skips is reported as skipped, with why.
    let skipped = |what: &str, why: &'static str| {
        finish(
            custom(format!("{what} (skipped: {why})"), move |_| {
                Outcome::skipped(why)
            })
            .into_expectation(),
        )
    };
    let e = if mode == "judge" {
        let rubric = string(o, "rubric", at)?;
        if rubric.trim().is_empty() {
            vec![skipped(
                "judge",
                "the rubric is empty, so Lamdis skips the step",
            )]
        } else {
            let threshold = opt_threshold(o, "threshold", at)?.unwrap_or(JUDGE_THRESHOLD);
            let mut c = judge(rubric).threshold(threshold);
            if transcript {
                c = c.on_transcript();
            }
            vec![finish(c.into_expectation())]
        }
    } else {
        // A list of keywords, or one string of comma-separated keywords.
        let raw: Vec<String> = match o.get("includes") {
            Some(Value::String(s)) => s.split(',').map(str::to_owned).collect(),
            _ => strings(o, "includes", at)?,
        };
        let keywords: Vec<String> = raw
            .into_iter()
            .map(|k| k.trim().to_owned())
            .filter(|k| !k.is_empty())
            .collect();
        if keywords.is_empty() {
            vec![skipped(
                "includes",
                "no keywords to look for, so Lamdis skips the step",
            )]
        } else {
            let text = if transcript { conversation() } else { reply() };
            // Every keyword is required: one check each, so the report names the missing ones.
            keywords
                .into_iter()
                .map(|k| finish(text.clone().contains(k).into_expectation()))
                .collect()
        }
    };
    Ok(if transcript {
        Checked::Conversation(e)
    } else {
        Checked::Turn(e)
    })
}

/// A `variable_check`: the variable at `variablePath` compared by `operator` with
/// `rightValue` (else `expectEquals`). An unknown operator and a literal regex that cannot
/// compile are refused where they are written.
fn variable_check(
    o: &Map<String, Value>,
    at: &str,
    label: Option<String>,
    warning: bool,
) -> Result<Checked, Problem> {
    let path = string(o, "variablePath", at)?;
    let op = match opt_string(o, "operator", at)? {
        None => VariableOp::TextEquals,
        Some(name) => operator(&name).ok_or_else(|| {
            // Lamdis's engine compares an unknown operator as text equality; a
            // misspelt `not_equal` would then pass on equal values. Refused, named.
            (
                join(at, "operator"),
                format!(
                    "unknown operator `{name}`, expected one of {}",
                    OPERATORS
                        .iter()
                        .map(|o| format!("`{o}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?,
    };
    // The value compared with: `rightValue` (interpolated), else `expectEquals`.
    let right = match (o.get("rightValue"), o.get("expectEquals")) {
        (Some(r), _) => r.clone(),
        (None, Some(e)) => e.clone(),
        (None, None) if !op.has_right() => Value::Null,
        (None, None) => {
            return Err((
                at.to_owned(),
                format!(
                    "missing field `rightValue` (or `expectEquals`): the value the variable {} \
                     is compared with",
                    op.phrase()
                ),
            ));
        }
    };
    // A regex written as it is (nothing to interpolate) is checked here, as every
    // literal is where a file is read.
    if op == VariableOp::Matches
        && let Value::String(pattern) = &right
        && !pattern.contains("${")
        && !pattern.contains("$steps")
        && let Err(e) = regex::Regex::new(pattern)
    {
        let field = if o.contains_key("rightValue") {
            "rightValue"
        } else {
            "expectEquals"
        };
        return Err((
            join(at, field),
            format!(
                "invalid regex /{pattern}/: {}",
                e.to_string().lines().last().unwrap_or_default().trim()
            ),
        ));
    }
    Ok(Checked::Variable(path, op, right, label, warning))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases of `text` as this format, by the loader's one road.
    fn read_as_test(
        text: &str,
        file: &str,
    ) -> Result<Vec<super::ImportedCase>, agent_test_core::util::input::LoadError> {
        crate::formats::read_named(text, file, crate::formats::SeedFormat::Lamdis)
    }

    use crate::formats::read::list;

    #[test]
    fn errors_name_the_path_and_what_was_expected() {
        let err = |text: &str| read_as_test(text, "t.json").unwrap_err().to_string();
        assert_eq!(
            err(r#"{"steps": [{"type": "mesage", "content": "hi"}]}"#),
            format!(
                "t.json: at steps[0].type: unknown type `mesage`, expected one of {}",
                list(STEP_TYPES)
            )
        );
        assert_eq!(
            err(
                r#"{"steps": [{"type": "extract", "variableName": "order id", "description": "d"}]}"#
            ),
            "t.json: at steps[0].variableName: expected letters, digits and underscores only, got `order id`"
        );
        assert_eq!(
            err(r#"{"steps": [{"type": "assistant_check", "mode": "includes", "includes": 3}]}"#),
            "t.json: at steps[0].includes: expected an array, got a number (3)"
        );
        assert_eq!(
            err(
                r#"{"steps": [{"type": "assistant_check", "mode": "judge", "rubric": "r", "severity": "fatal"}]}"#
            ),
            "t.json: at steps[0].severity: unknown severity `fatal`, expected one of `error`, `warning`"
        );
    }
}
