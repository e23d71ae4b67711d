//! PromptKit's content assertions: what the reply text includes, matches, and how long it is.

use super::super::super::read::{Problem, opt_bool, opt_string};
use super::{Ctx, Place};
use agent_test_core::check::{Expectation, IntoExpectation, Text, replies, reply};

/// The text a content assertion reads: the turn's reply, or in `conversation_assertions`
/// every reply.
fn text(cx: &Ctx<'_>) -> Text {
    match cx.place {
        Place::Turn => reply(),
        Place::Conversation => replies(),
    }
}

/// `content_includes`: one check per pattern, each labelled with its pattern when there are
/// several, so a failure says which one is missing.
pub(super) fn includes(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let Some(patterns) = cx.names(&["patterns"])? else {
        return cx.misconfigured("no `patterns` to look for");
    };
    Ok(patterns
        .iter()
        .map(|pat| {
            let e = text(cx).contains(pat.clone()).into_expectation();
            let extra = (patterns.len() > 1).then_some(pat.as_str());
            cx.label(e, extra)
        })
        .collect())
}

/// `content_includes_any` (`any: true`) and `content_not_includes` (`any: false`): one
/// case-insensitive alternation of the literal patterns.
pub(super) fn includes_any(cx: &Ctx<'_>, any: bool) -> Result<Vec<Expectation>, Problem> {
    let Some(patterns) = cx.names(&["patterns"])? else {
        return cx.misconfigured("no `patterns` to look for");
    };
    // Both read every assistant message (so far, in a turn).
    let word = match opt_string(cx.p, "match_mode", &cx.at)?.as_deref() {
        None | Some("" | "substring") => false,
        Some("word_boundary") => true,
        Some(other) => {
            return Err((
                cx.here("match_mode"),
                format!("expected `substring` or `word_boundary`, got `{other}`"),
            ));
        }
    };
    let alternatives: Vec<String> = patterns
        .iter()
        .map(|p| {
            let lit = regex::escape(p);
            if word { format!(r"\b{lit}\b") } else { lit }
        })
        .collect();
    let re = format!("(?:{})", alternatives.join("|"));
    let c = if any {
        replies().matches(re)
    } else {
        replies().not_matches(re)
    }
    .case_insensitive();
    Ok(vec![cx.label(cx.session(c), None)])
}

/// `content_matches`: the text matches `pattern` (or, with `expect_match: false`, does not).
pub(super) fn matches(cx: &Ctx<'_>) -> Result<Vec<Expectation>, Problem> {
    let Some(pattern) = cx.text("pattern")? else {
        return cx.misconfigured("no `pattern`");
    };
    let expect_match = opt_bool(cx.p, "expect_match", &cx.at)?.unwrap_or(true);
    cx.one(if expect_match {
        text(cx).matches(pattern)
    } else {
        text(cx).not_matches(pattern)
    })
}

/// `min_length` (`min: true`) and `max_length`: the text's length in bytes.
pub(super) fn length(cx: &Ctx<'_>, min: bool) -> Result<Vec<Expectation>, Problem> {
    let keys: &[&str] = if min {
        &["min", "min_characters", "min_chars"]
    } else {
        &["max", "max_characters", "max_chars"]
    };
    let mut n = None;
    for k in keys {
        if let Some(v) = cx.count(k)?.filter(|v| *v > 0) {
            n = Some(v);
            break;
        }
    }
    let text = text(cx);
    if min {
        let Some(n) = n else {
            return cx.misconfigured("`min` must be a positive number of characters");
        };
        // Go's `len()` counts bytes.
        return cx.one(text.length().at_least(n).in_bytes());
    }
    // `max_tokens` estimates four characters a token: `len / 4 > max_tokens` fails.
    let tokens = cx
        .count("max_tokens")?
        .filter(|t| *t > 0)
        .map(|t| t.saturating_mul(4).saturating_add(3));
    let Some(max) = n else {
        return cx.misconfigured("`max` must be a positive number of characters");
    };
    let max = tokens.map_or(max, |t| t.min(max));
    cx.one(text.length().at_most(max).in_bytes())
}
