//! `agent-test mutate`: how much broken behaviour a suite's checks would notice, from the
//! reports its runs left (see `agent_test_runtime::mutate`); its HTML page, and the comparison
//! of two mutation runs (`agent-test diff`).

mod diff;
mod page;

use std::path::PathBuf;
use std::process::ExitCode;

use agent_test_runtime::check::Expectation;
use agent_test_runtime::judge::Judge;
use agent_test_runtime::mutate::{Fate, MutantOutcome, Mutation, Run, mutate_many};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::args::MutateArgs;
use crate::report::{Collection, Entry};

pub(crate) use diff::{diff, is_document};

/// What `agent-test mutate --format json` writes, and `agent-test diff` reads back.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Document {
    /// killed / (killed + survived) over the suite; `null` when nothing was measured.
    score: Option<f64>,
    scenarios: Vec<Scenario>,
}

/// One scenario's mutation run, or why it could not be made.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    scenario: String,
    source: String,
    /// Why it was not mutated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    score: Option<f64>,
    killed: usize,
    survived: usize,
    equivalent: usize,
    errored: usize,
    needs_judge: usize,
    mutants: Vec<MutantOutcome>,
}

impl Scenario {
    fn new(name: String, source: String, outcome: Result<Mutation, String>) -> Self {
        let (error, m) = match outcome {
            Ok(m) => (None, m),
            Err(why) => (Some(why), Mutation::default()),
        };
        Scenario {
            scenario: name,
            source,
            error,
            score: m.score(),
            killed: m.killed(),
            survived: m.survived(),
            equivalent: m.equivalent(),
            errored: m.errored(),
            needs_judge: m.needs_judge(),
            mutants: m.mutants,
        }
    }
}

pub(crate) fn run(args: &MutateArgs) -> ExitCode {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("target/agent-test")]
    } else {
        args.paths.clone()
    };
    let collection = match Collection::read(&paths) {
        Ok(c) if !c.entries.is_empty() => c,
        Ok(_) => {
            eprintln!("agent-test: no report under {}", shown(&paths));
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("agent-test: {e}");
            return ExitCode::from(2);
        }
    };
    for p in &collection.problems {
        eprintln!("agent-test: {p}");
    }
    let live = if args.judge_live {
        match crate::judge(&args.judge) {
            Some(j) => Some(j),
            None => {
                eprintln!(
                    "agent-test: --judge-live needs a judge: name one with AGENT_TEST_JUDGE_MODEL"
                );
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    // Each report's checks and judge read first; then every readable one mutated at once, on
    // all cores.
    let prepared: Vec<Result<Vec<Expectation>, String>> =
        collection.entries.iter().map(checks_of).collect();
    // Without --judge-live, a report that names no judge model is graded by the environment's
    // judge, from its cache only.
    let fallback = if live.is_some() {
        None
    } else {
        crate::judge(&args.judge).map(Judge::cache_only)
    };
    let judges: Vec<Option<Judge>> = collection
        .entries
        .iter()
        .map(|e| judge_of(e, live.as_ref(), fallback.as_ref()))
        .collect();
    let runs: Vec<Run<'_>> = collection
        .entries
        .iter()
        .zip(&prepared)
        .zip(&judges)
        .filter_map(|((e, p), judge)| {
            let checks = p.as_ref().ok()?;
            let run = Run::new(&e.report.transcript, checks);
            Some(match judge {
                Some(j) => run.judged(j, e.report.scenario.repeat),
                None => run,
            })
        })
        .collect();
    let mut mutated = mutate_many(&runs).into_iter();
    let scenarios: Vec<Scenario> = collection
        .entries
        .iter()
        .zip(prepared)
        .map(|(e, p)| {
            let outcome = p.and_then(|_| {
                mutated
                    .next()
                    .unwrap_or_else(|| Err("not mutated".to_owned()))
            });
            Scenario::new(e.key(), e.source.clone(), outcome)
        })
        .collect();
    let (killed, survived) = scenarios
        .iter()
        .fold((0, 0), |(k, s), m| (k + m.killed, s + m.survived));
    #[allow(clippy::cast_precision_loss)]
    let score = (killed + survived > 0).then(|| killed as f64 / (killed + survived) as f64);
    let document = Document { score, scenarios };
    if !args.format.print(&document, as_text) {
        return ExitCode::from(2);
    }
    if let Some(path) = &args.html
        && let Err(e) = std::fs::write(path, page::page(&document, &shown(&paths)))
    {
        eprintln!("agent-test: {}: cannot write: {e}", path.display());
        return ExitCode::from(2);
    }
    let Some(score) = score else {
        eprintln!(
            "agent-test: no mutant was killed or survived: nothing was measured (every scenario is listed with why)"
        );
        return ExitCode::from(2);
    };
    if !collection.problems.is_empty() {
        return ExitCode::from(2);
    }
    match args.min_score {
        Some(min) if score < min => {
            eprintln!(
                "agent-test: the mutation score {} is under --min-score {}",
                percent(score),
                percent(min)
            );
            ExitCode::from(1)
        }
        _ => ExitCode::SUCCESS,
    }
}

/// The judge that grades a report's mutants: the live one when asked; else, answering from
/// the cache only, the model the report names (the one whose verdicts were cached), else
/// `fallback` (the environment's, cache only); else none (judge checks are then errors).
fn judge_of(e: &Entry, live: Option<&Judge>, fallback: Option<&Judge>) -> Option<Judge> {
    if let Some(j) = live {
        return Some(j.clone());
    }
    match &e.report.judge {
        Some(usage) if !usage.model.is_empty() => Some(Judge::cached(&usage.model)),
        _ => fallback.cloned(),
    }
}

/// The checks of one report, read back, or why its transcript cannot be mutated.
fn checks_of(e: &Entry) -> Result<Vec<Expectation>, String> {
    let r = &e.report;
    if r.repeats.is_some() {
        return Err("a repeated scenario's combined report: mutate each run's own".to_owned());
    }
    if r.checks.is_empty() {
        return Err(
            "the report holds no checks (a scenario without checks, or a report written before reports kept them)"
                .to_owned(),
        );
    }
    r.checks
        .iter()
        .map(|c| {
            serde_json::from_value(c.clone()).map_err(|e| {
                let custom = c.pointer("/check/type").and_then(Value::as_str) == Some("custom");
                let label = c.pointer("/check/label").and_then(Value::as_str).filter(|_| custom);
                match label {
                    Some(l) => format!(
                        "its check `{l}` is a Rust closure, which cannot be evaluated outside its test"
                    ),
                    None => format!("a check cannot be read: {e}"),
                }
            })
        })
        .collect()
}

/// Paths as a list for a message.
pub(crate) fn shown(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A fraction as a percentage with one decimal: `83.6%`.
pub(crate) fn percent(score: f64) -> String {
    format!("{:.1}%", score * 100.0)
}

fn as_text(d: &Document) -> String {
    let mut out = String::new();
    for s in &d.scenarios {
        if let Some(why) = &s.error {
            out.push_str(&format!("{}: not mutated: {why}\n", s.scenario));
            continue;
        }
        out.push_str(&format!(
            "{}: {} ({} killed, {} survived, {} equivalent, {} errored, {} need the judge)\n",
            s.scenario,
            s.score.map_or_else(|| "no score".to_owned(), percent),
            s.killed,
            s.survived,
            s.equivalent,
            s.errored,
            s.needs_judge
        ));
        for o in &s.mutants {
            if let Fate::Survived { readers } = &o.fate {
                out.push_str(&format!(
                    "  survived: {} ({})\n",
                    o.change,
                    unnoticed(readers)
                ));
            }
        }
    }
    out.push_str(&format!(
        "mutation score: {}\n",
        d.score
            .map_or_else(|| "none (nothing measured)".to_owned(), percent)
    ));
    out
}

/// Which checks let a surviving mutant through.
fn unnoticed(readers: &[String]) -> String {
    if readers.is_empty() {
        "no check reads it".to_owned()
    } else {
        format!("unnoticed by {}", readers.join("; "))
    }
}
