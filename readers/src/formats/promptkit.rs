//! PromptKit `kind: Scenario` documents (YAML), one or several per file (`---`-separated
//! documents are not supported; use one file per scenario or a list).
//!
//! | PromptKit | agent-test |
//! |---|---|
//! | `metadata.name`, `spec.description`, `spec.task_type` | the scenario's name, description, and the `task_type` context variable (other `metadata` in `extra`) |
//! | `spec.turns[]` (`role: user`, `content`) / `spec.steps[]` (`type: input`) | user turns |
//! | a turn's `assertions` / `conversation_assertions` | checks on that turn / on every assistant message of the conversation |
//! | `message` (beside `params` or inside it) | the check's label |
//! | `content_includes` (`contains`) | one case-insensitive [`contains`](agent_test_core::check::Text::contains) per pattern (all must be found) |
//! | `content_includes_any` (`contains_any`) / `content_not_includes` (`content_excludes`, `match_mode: substring \| word_boundary`) | some / no assistant message (so far, in a turn) contains a pattern, case-insensitively: one case-insensitive regex of the escaped patterns |
//! | `content_matches` (`regex`, `expect_match`) | [`matches`](agent_test_core::check::Text::matches) / `not_matches`: the Rust `regex` crate (RE2 family, like Go's), case-sensitive unless `(?i)` |
//! | `min_length` / `max_length` (`min`, `max`, `…_characters`, `…_chars`, `max_tokens`) | [`length`](agent_test_core::check::Text::length)`().at_least(n)` / `.at_most(n)`, [`in_bytes`](agent_test_core::check::LengthCheck::in_bytes) (Go's `len()`); `max_tokens` is four bytes a token |
//! | `json_valid` (`is_valid_json`, `valid_json`), `json_schema`, `json_path` (`allow_wrapped`, `extract_json`) | the reply text as JSON ([`JsonSource::Lenient`](agent_test_core::check::JsonSource::Lenient)): [`jmespath`](agent_test_core::check::jmespath)`("@").evaluates()`, [`schema`](agent_test_core::check::schema), and `json_path` as **JMESPath** (`expression`, `expected`, `contains`, `min`/`max`, `min_results`/`max_results`) |
//! | `tools_called` (`tool_called`; `tools`/`tool_names`, `min_calls`, `max_calls`, `ignore_validation`, `require_args`) | [`required_tools`](agent_test_core::check::required_tools), or one [`tool`](agent_test_core::check::tool) check per tool with its counts; in a turn, calls that returned an error do not count ([`succeeded`](agent_test_core::check::ToolCheck::succeeded), or [`succeeded_or_invalid`](agent_test_core::check::ToolCheck::succeeded_or_invalid) with `ignore_validation`) |
//! | `tools_not_called`, `tools_called_session`, `tools_not_called_session` | [`forbidden_tools`](agent_test_core::check::forbidden_tools) (any call counts), and the session forms over the conversation (so far, in a turn) |
//! | `tool_args` / `tool_args_session` (`tool_name`, `expected_args`) | some call with every argument rendered equal (`null` = null) |
//! | `tool_args_excluded_session` (`tools_not_called_with_args`; `excluded_args` / `forbidden_args`) | one [`no_tool`](agent_test_core::check::no_tool) per argument with its rendered values |
//! | `tool_calls_with_args` (`tool_name` or none, `expected_args` / `required_args`, `args_match`, `result_includes`, `result_matches`, `no_error`) | [`tool`](agent_test_core::check::tool) (or [`any_tool`](agent_test_core::check::any_tool))`.every_call()`: every call must satisfy every constraint; values compared as rendered text (`10` equals `"10"`), `null` = present |
//! | `tool_call_count` (`tool`, `min`, `max`), `tool_call_sequence`, `tool_call_chain` (`steps`), `tool_result_includes` / `tool_result_matches` (`occurrence`), `no_tool_errors` (`tools`) | tool counts, [`tool_sequence`](agent_test_core::check::tool_sequence), [`tool_chain`](agent_test_core::check::tool_chain), `.result(..).at_least(occurrence)`, [`no_tool_errors`](agent_test_core::check::no_tool_errors) |
//! | `latency_budget` (`max_ms`) | [`latency`](agent_test_core::check::latency)`().at_most(..)` |
//! | `agent_invoked` / `agent_not_invoked` (`agents` / `agent_names`, `min_calls`) | [`agent_invoked`](agent_test_core::check::agent_invoked)`.min_calls(n)` / [`agent_not_invoked`](agent_test_core::check::agent_not_invoked), with [`exact_names`](agent_test_core::check::AgentCheck::exact_names) (a name is a tool name) |
//! | `agent_response_contains` | [`agent_response`](agent_test_core::check::agent_response)`.contains` (case-sensitive), with [`exact_name`](agent_test_core::check::AgentResponseCheck::exact_name) |
//! | `state_is`, `transitioned_to`, `workflow_complete` | [`state_is`](agent_test_core::check::state_is), [`transitioned_to`](agent_test_core::check::transitioned_to), [`workflow_complete`](agent_test_core::check::workflow_complete) |
//! | `guardrail_triggered` (`guardrail` / `validator_type` / `validator`, `expected` / `should_trigger` / `assertions`, default true) | [`guardrail_triggered`](agent_test_core::check::guardrail_triggered) and its negative / any-guardrail forms; the negative ones [`or_not_run`](agent_test_core::check::GuardrailCheck::or_not_run) (a validator that did not run did not trigger) |
//!
//! A required parameter that is missing or empty makes, as in PromptKit, a failing assertion
//! "misconfigured: …" (the file loads, the rest of the suite runs); an unknown parameter, a
//! parameter of the wrong type or an impossible constraint is still an error naming its place.
//!
//! ```
//! use agent_test::scenario::RunScenario;
//! # #[cfg(feature = "yaml")] {
//! use agent_test::{formats::SeedFormat, load};
//! use agent_test::model::{Call, Reply, Transcript, Turn};
//! let yaml = "
//! apiVersion: promptkit.altairalabs.ai/v1alpha1
//! kind: Scenario
//! metadata:
//!   name: weather
//! spec:
//!   turns:
//!     - role: user
//!       content: What's the weather in San Francisco?
//!       assertions:
//!         - type: tools_called
//!           params:
//!             tools: [get_weather]
//!   conversation_assertions:
//!     - type: tool_calls_with_args
//!       params:
//!         tool_name: get_weather
//!         required_args:
//!           location: San Francisco
//! ";
//! let case = load::cases_from_text(yaml, "weather.yaml", Some(SeedFormat::PromptKit)).unwrap().remove(0);
//! let reply = Reply::text("Sunny.").call(Call::tool("get_weather", serde_json::json!({"location": "San Francisco"})));
//! let report = case.scenario.evaluate(&Transcript::new(vec![Turn::new(0, "weather?", reply, 5)]));
//! assert!(report.passed(), "{report}");
//! # }
//! ```

use std::path::Path;

use serde_json::{Map, Value};

use super::ImportedCase;
use super::read::{
    Problem, array, index, join, kind, object, opt_object, opt_string, required, string, tag,
};
use agent_test_core::check::Expectation;
use agent_test_core::scenario::Scenario;
use agent_test_core::util::input::LoadError;

pub(crate) fn from_value(doc: &Value, file: &Path) -> Result<Vec<ImportedCase>, LoadError> {
    super::read::cases(doc, file, None, scenario)
}

/// Whether a document looks like PromptKit scenarios.
pub(crate) fn detect(v: &Value) -> bool {
    let one = |v: &Value| {
        v.get("kind").and_then(Value::as_str) == Some("Scenario")
            || v.get("apiVersion")
                .and_then(Value::as_str)
                .is_some_and(|a| a.contains("promptkit"))
    };
    super::read::first_case(v, None).is_some_and(one)
}

fn scenario(v: &Value, at: &str, default_name: String) -> Result<Scenario, Problem> {
    let o = object(v, at, &["apiVersion", "kind", "metadata", "spec"])?;
    if let Some(k) = o.get("kind")
        && k.as_str() != Some("Scenario")
    {
        return Err((
            join(at, "kind"),
            format!("expected `Scenario`, got {}", kind(k)),
        ));
    }
    let metadata = opt_object(
        o,
        "metadata",
        at,
        &["name", "namespace", "labels", "annotations"],
    )?;
    let name = match metadata {
        Some(m) => opt_string(m, "name", &join(at, "metadata"))?,
        None => None,
    }
    .unwrap_or(default_name);
    let mut scenario = Scenario::new(name);
    // Kubernetes-style metadata besides the name: kept, shown in reports.
    if let Some(m) = metadata {
        let extra: serde_json::Map<String, Value> = m
            .iter()
            .filter(|(k, _)| k.as_str() != "name")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !extra.is_empty() {
            scenario = scenario.context("extra", Value::Object(extra));
        }
    }
    let spec_at = join(at, "spec");
    let spec = object(
        required(o, "spec", at)?,
        &spec_at,
        &[
            "task_type",
            "description",
            "turns",
            "steps",
            "conversation_assertions",
        ],
    )?;
    if let Some(d) = opt_string(spec, "description", &spec_at)? {
        scenario = scenario.described(d);
    }
    if let Some(t) = opt_string(spec, "task_type", &spec_at)? {
        scenario = scenario.context("task_type", t);
    }
    let turns = array(spec, "turns", &spec_at)?;
    let steps = array(spec, "steps", &spec_at)?;
    match (turns.is_empty(), steps.is_empty()) {
        (true, true) => return Err((spec_at, "expected `turns` (or workflow `steps`)".into())),
        (false, false) => {
            return Err((
                join(&spec_at, "steps"),
                "a scenario has `turns` or workflow `steps`, not both".into(),
            ));
        }
        _ => {}
    }
    let turns_at = join(&spec_at, "turns");
    for (i, t) in turns.iter().enumerate() {
        let here = index(&turns_at, i);
        let to = object(t, &here, &["role", "content", "assertions"])?;
        let role = string(to, "role", &here)?;
        let content = string(to, "content", &here)?;
        match role.as_str() {
            "user" => {
                scenario = scenario.user(content);
                for e in assertions(to, &here, true)? {
                    scenario = scenario.expect_turn(e);
                }
            }
            "system" => {
                if to.contains_key("assertions") {
                    return Err((
                        join(&here, "assertions"),
                        "a system turn gets no reply to check".into(),
                    ));
                }
                scenario = scenario.system(content);
            }
            other => {
                return Err((
                    join(&here, "role"),
                    format!("expected `user` or `system`, got `{other}`"),
                ));
            }
        }
    }
    let steps_at = join(&spec_at, "steps");
    for (i, s) in steps.iter().enumerate() {
        let here = index(&steps_at, i);
        let so = object(s, &here, &["type", "content", "assertions"])?;
        tag(so, "type", &here, &["input"])?;
        scenario = scenario.user(string(so, "content", &here)?);
        for e in assertions(so, &here, true)? {
            scenario = scenario.expect_turn(e);
        }
    }
    scenario.expect = assertions_at(spec, &spec_at, "conversation_assertions", false)?;
    Ok(scenario)
}

fn assertions(o: &Map<String, Value>, at: &str, turn: bool) -> Result<Vec<Expectation>, Problem> {
    assertions_at(o, at, "assertions", turn)
}

mod assertions;
use assertions::Place;
#[cfg(all(test, feature = "yaml"))]
use assertions::TYPES;

/// The assertions listed at `o[key]`: a turn's (`turn`) or the conversation's.
fn assertions_at(
    o: &Map<String, Value>,
    at: &str,
    key: &str,
    turn: bool,
) -> Result<Vec<Expectation>, Problem> {
    let here = join(at, key);
    let mut out = Vec::new();
    for (i, a) in array(o, key, at)?.iter().enumerate() {
        let place = if turn {
            Place::Turn
        } else {
            Place::Conversation
        };
        let at = index(&here, i);
        let expectations = assertions::assertion(a, &at, place)?;
        // An impossible constraint (`min_calls` above `max_calls`) is refused at the
        // assertion that has it, not only at the scenario.
        if let Some(problem) = expectations.iter().find_map(|e| e.check.problem()) {
            return Err((at, format!("impossible constraint: {problem}")));
        }
        out.extend(expectations);
    }
    Ok(out)
}

#[cfg(all(test, feature = "yaml"))]
mod tests {
    use super::*;
    use crate::formats::read::list;

    #[test]
    fn errors_name_the_path_and_what_was_expected() {
        let err = |text: &str| {
            crate::formats::read_named(text, "p.yaml", crate::formats::SeedFormat::PromptKit)
                .unwrap_err()
                .to_string()
        };
        let base = "kind: Scenario\nmetadata: {name: x}\nspec:\n  turns:\n    - role: user\n      content: hi\n      assertions:\n";
        assert_eq!(
            err(&format!("{base}        - type: content_include\n")),
            format!(
                "p.yaml: at spec.turns[0].assertions[0].type: unknown type `content_include`, expected one of {}",
                list(TYPES)
            )
        );
        assert_eq!(
            err(&format!(
                "{base}        - type: tools_called\n          params: {{tool: [a]}}\n"
            )),
            "p.yaml: at spec.turns[0].assertions[0].params.tool: unknown field `tool` (did you mean `tools`?), expected one of `message`, `tools`, `tool_names`, `min_calls`, `max_calls`, `ignore_validation`, `require_args`"
        );
        assert_eq!(
            err(
                "kind: Scenario\nspec:\n  conversation_assertions:\n    - type: workflow_complete\n"
            ),
            "p.yaml: at spec: expected `turns` (or workflow `steps`)"
        );
        assert_eq!(
            err(
                "kind: Scenario\nspec:\n  turns: [{role: user, content: hi}]\n  conversation_assertions:\n    - type: nope\n"
            ),
            format!(
                "p.yaml: at spec.conversation_assertions[0].type: unknown type `nope`, expected one of {}",
                list(TYPES)
            )
        );
    }

    #[test]
    fn values_render_like_go() {
        use super::assertions::rendered;
        assert_eq!(rendered(&serde_json::json!(10)), "10");
        assert_eq!(rendered(&serde_json::json!(10.0)), "10");
        assert_eq!(rendered(&serde_json::json!(2.5)), "2.5");
        assert_eq!(rendered(&serde_json::json!("10")), "10");
        assert_eq!(rendered(&serde_json::json!(true)), "true");
    }
}
