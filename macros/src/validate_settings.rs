//! The settings written as literals, checked where the user wrote them: `repeat` and
//! `min_passes`, `min_pass_rate`, `tags` — the rules the runtime applies to values computed at
//! run time.

use proc_macro2::{Delimiter, Ident, Span, TokenTree};

use crate::diag::Diagnostics;
use crate::literals::{int_literal, number_literal};
use crate::syntax::cursor::is_punct;
use crate::syntax::{Stmt, SuiteAst, UserExpr};

/// A setting written in a list of settings: `None` when not written, `Some(None)` when
/// written but not an integer literal, `Some(Some((value, span)))` for a literal.
type Written = Option<Option<(u128, Span)>>;

/// The last `name = ...;` of `settings`.
fn written<'a>(name: &str, settings: impl Iterator<Item = (&'a Ident, &'a UserExpr)>) -> Written {
    settings.filter(|(n, _)| *n == name).last().map(|(_, v)| {
        let tokens: Vec<TokenTree> = v.tokens.clone().into_iter().collect();
        int_literal(&tokens)
    })
}

/// `repeat = N;` and `min_passes = M;` written as literals, in the suite and in each scenario
/// (whose settings win): at least one run, at least one passing run required, and no more
/// passing runs required than runs made (the default is one run).
pub(crate) fn check_repeats(suite: &SuiteAst, diag: &mut Diagnostics) {
    let suite_settings = || suite.settings.iter().map(|s| (&s.name, &s.value));
    let suite_repeat = written("repeat", suite_settings());
    let suite_min = written("min_passes", suite_settings());
    let mut levels = Vec::new();
    // The suite's settings hold for its files' cases and the scenarios that set neither.
    let inherited = !suite.files.is_empty()
        || suite.scenarios.is_empty()
        || suite.scenarios.iter().any(|s| {
            !s.body.iter().any(|stmt| {
                matches!(stmt, Stmt::Setting { name, .. } if name == "repeat" || name == "min_passes")
            })
        });
    if inherited {
        levels.push((suite_repeat, suite_min, suite_repeat, suite_min));
    } else {
        // Zeros are still wrong where they are written.
        levels.push((suite_repeat, suite_min, None, None));
    }
    for s in &suite.scenarios {
        let settings = || {
            s.body.iter().filter_map(|stmt| match stmt {
                Stmt::Setting { name, value } => Some((name, value)),
                _ => None,
            })
        };
        let (repeat, min) = (
            written("repeat", settings()),
            written("min_passes", settings()),
        );
        if repeat.is_some() || min.is_some() {
            levels.push((repeat, min, repeat.or(suite_repeat), min.or(suite_min)));
        }
    }
    for (own_repeat, own_min, repeat, min) in levels {
        if let Some(Some((0, span))) = own_repeat {
            diag.error(
                span,
                "repeat = 0 runs the scenario no time: it must be at least 1",
            );
        }
        if let Some(Some((0, span))) = own_min {
            diag.error(
                span,
                "min_passes = 0 passes without a single passing run: it must be at least 1 \
                 (make the checks `.warning()` to only report them)",
            );
        }
        let times = match repeat {
            None => (1, " (the default)"),
            Some(Some((n, _))) => (n, ""),
            Some(None) => continue,
        };
        let Some(Some((needed, min_span))) = min else {
            continue;
        };
        if times.0 == 0 || needed <= times.0 {
            continue;
        }
        // On what this level wrote: its own `min_passes`, else its own `repeat`.
        let span = match (own_min, own_repeat) {
            (Some(Some((_, span))), _) | (_, Some(Some((_, span)))) => span,
            _ => min_span,
        };
        diag.error(
            span,
            format!(
                "min_passes = {needed} can never be reached with repeat = {}{}",
                times.0, times.1
            ),
        );
    }
}

/// `min_pass_rate = 0.9;` and `min_pass_rate = (0.9, 0.95);` written as literals, in the suite
/// and in each scenario: a rate and a confidence each more than 0 and less than 1 — the rule of
/// the runtime's `MinPassRate::problem`, which refuses values computed at run time. (Whether
/// `repeat` runs can prove the rate is said at run time, with how many runs it needs.)
pub(crate) fn check_pass_rates(suite: &SuiteAst, diag: &mut Diagnostics) {
    let suite_values = suite
        .settings
        .iter()
        .filter(|s| s.name == "min_pass_rate")
        .map(|s| &s.value);
    let scenario_values = suite.scenarios.iter().flat_map(|s| {
        s.body.iter().filter_map(|stmt| match stmt {
            Stmt::Setting { name, value } if name == "min_pass_rate" => Some(value),
            _ => None,
        })
    });
    for value in suite_values.chain(scenario_values) {
        let tokens: Vec<TokenTree> = value.tokens.clone().into_iter().collect();
        let (rate, confidence) = match tokens.as_slice() {
            [TokenTree::Group(g)] if g.delimiter() == Delimiter::Parenthesis => {
                let parts: Vec<Vec<TokenTree>> =
                    g.stream()
                        .into_iter()
                        .fold(vec![Vec::new()], |mut parts, t| {
                            if is_punct(&t, ',') {
                                parts.push(Vec::new());
                            } else if let Some(last) = parts.last_mut() {
                                last.push(t);
                            }
                            parts
                        });
                match parts.as_slice() {
                    [rate, confidence] | [rate, confidence, _] => {
                        (number_literal(rate), number_literal(confidence))
                    }
                    _ => continue,
                }
            }
            other => (number_literal(other), None),
        };
        if let Some((rate, span)) = rate {
            if !(0.0..=1.0).contains(&rate) {
                diag.error(
                    span,
                    format!("min_pass_rate: {rate} is not a pass rate: a pass rate is from 0 to 1"),
                );
            } else if rate == 0.0 {
                diag.error(
                    span,
                    "min_pass_rate: a rate of 0 passes without a single passing run: the rate \
                     must be more than 0",
                );
            } else if rate == 1.0 {
                diag.error(
                    span,
                    "min_pass_rate: a rate of 1 can never pass: no number of runs proves a pass \
                     rate of 1 (the lower bound stays below it); ask for less than 1",
                );
            }
        }
        if let Some((confidence, span)) = confidence
            && !(confidence > 0.0 && confidence < 1.0)
        {
            diag.error(
                span,
                format!(
                    "min_pass_rate: a confidence of {confidence} is impossible: the confidence \
                     must be more than 0 and less than 1 (0.95 for 95%)"
                ),
            );
        }
    }
}

/// `tags = ["..", ..];` written as string literals, in the suite and in each scenario: each tag
/// one word (not empty, no whitespace or commas) and listed once — the rule of
/// `ScenarioInfo::tags_problem`, which the runtime applies to tags computed at run time.
pub(crate) fn check_tags(suite: &SuiteAst, diag: &mut Diagnostics) {
    let suite_tags = suite
        .settings
        .iter()
        .filter(|s| s.name == "tags")
        .map(|s| &s.value);
    let scenario_tags = suite.scenarios.iter().flat_map(|s| {
        s.body.iter().filter_map(|stmt| match stmt {
            Stmt::Setting { name, value } if name == "tags" => Some(value),
            _ => None,
        })
    });
    for value in suite_tags.chain(scenario_tags) {
        let tokens: Vec<TokenTree> = value.tokens.clone().into_iter().collect();
        let [TokenTree::Group(g)] = tokens.as_slice() else {
            continue;
        };
        if g.delimiter() != Delimiter::Bracket {
            continue;
        }
        let mut seen: Vec<String> = Vec::new();
        for item in g.stream().into_iter() {
            if is_punct(&item, ',') {
                continue;
            }
            let TokenTree::Literal(l) = &item else {
                break; // not all literals: the runtime checks the computed tags
            };
            let Ok(lit) = syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into()) else {
                break;
            };
            let tag = lit.value();
            if tag.is_empty() || tag.contains(|c: char| c.is_whitespace() || c == ',') {
                diag.error(
                    l.span(),
                    format!(
                        "`{tag}` is not a tag: a tag is one word, without whitespace or commas"
                    ),
                );
            } else if seen.contains(&tag) {
                diag.error(l.span(), format!("the tag `{tag}` is listed twice"));
            }
            seen.push(tag);
        }
    }
}
