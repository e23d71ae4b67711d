//! PromptKit's workflow assertions: which agents were invoked and what they said, the
//! workflow's state, and which guardrails triggered.

use super::super::super::read::{Problem, opt_bool, strings};
use super::Ctx;
use agent_test_core::check::{
    Expectation, IntoExpectation, agent_invoked, agent_not_invoked, agent_response,
    any_guardrail_triggered, guardrail_not_triggered, guardrail_triggered, no_guardrail_triggered,
    state_is, transitioned_to,
};

/// `agent_invoked` (`invoked: true`) and `agent_not_invoked`.
pub(super) fn agents(cx: &Ctx<'_>, invoked: bool) -> Result<Vec<Expectation>, Problem> {
    let mut agents = strings(cx.p, "agents", &cx.at)?;
    agents.extend(strings(cx.p, "agent_names", &cx.at)?);
    if agents.is_empty() {
        return cx.misconfigured("no `agents` named");
    }
    // PromptKit names the member tools themselves: exact names only.
    if !invoked {
        return cx.one(agent_not_invoked(agents).exact_names());
    }
    let mut c = agent_invoked(agents).exact_names();
    if let Some(n) = cx.count("min_calls")? {
        if n == 0 {
            return Err((
                cx.here("min_calls"),
                "expected at least 1: `min_calls: 0` can never fail (to require that an \
                 agent is not invoked, use `agent_not_invoked`)"
                    .into(),
            ));
        }
        c = c.min_calls(n);
    }
    cx.one(c)
}

/// `agent_response_contains`: what the named agent said contains the text.
pub(super) fn agent_response_contains(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let (Some(agent), Some(text)) = (cx.text("agent")?, cx.text("contains")?) else {
        return cx.misconfigured("`agent` and `contains` are both required");
    };
    cx.one(agent_response(agent).contains(text).exact_name())
}

/// `state_is` (`now: true`: the current state) and `transitioned_to` (any state reached).
pub(super) fn state(cx: &Ctx<'_>, now: bool) -> Result<Vec<Expectation>, Problem> {
    let Some(state) = cx.text("state")? else {
        return cx.misconfigured("no `state`");
    };
    if now {
        return cx.one(state_is(state));
    }
    // The accumulated transition history: in a turn, every turn so far.
    Ok(vec![cx.label(cx.session(transitioned_to(state)), None)])
}

/// `guardrail_triggered`: a named guardrail (or any) triggered, or with `expected: false` did
/// not.
pub(super) fn guardrail(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let p = cx.p;
    // `expected` (documented), `should_trigger` (the handler), `assertions` (the seed's
    // examples): one flag, three spellings.
    let mut expected: Option<(bool, &str)> = None;
    for key in ["expected", "should_trigger", "assertions"] {
        if let Some(b) = opt_bool(p, key, &cx.at)? {
            match expected {
                Some((a, first)) if a != b => {
                    return Err((
                        cx.here(key),
                        format!("`{first}` and `{key}` say opposite things: give one"),
                    ));
                }
                _ => expected = Some((b, key)),
            }
        }
    }
    let expected = expected.is_none_or(|(b, _)| b);
    let mut name = None;
    for key in ["guardrail", "validator_type", "validator"] {
        if let Some(n) = cx.text(key)? {
            name = Some(n);
            break;
        }
    }
    // In PromptKit a validator that did not run did not trigger.
    cx.one(match (name, expected) {
        (Some(g), true) => guardrail_triggered(g).into_expectation(),
        (Some(g), false) => guardrail_not_triggered(g).or_not_run().into_expectation(),
        (None, true) => any_guardrail_triggered().into_expectation(),
        (None, false) => no_guardrail_triggered().or_not_run().into_expectation(),
    })
}
