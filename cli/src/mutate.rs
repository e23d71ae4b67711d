//! `agent-test mutate`: how much broken behaviour a suite's checks would notice, from the
//! reports its runs left (see `agent_test_runtime::mutate`).

use std::path::PathBuf;
use std::process::ExitCode;

use agent_test_runtime::check::Expectation;
use agent_test_runtime::model::Transcript;
use agent_test_runtime::mutate::{Fate, Mutation, mutate_many};
use serde_json::{Value, json};

use crate::args::{MutateArgs, MutateFormat};
use crate::report::{Collection, Entry};

/// One scenario's mutation run, or why it could not be made.
struct Scenario {
    name: String,
    source: String,
    outcome: Result<Mutation, String>,
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
    // Each report's checks read first; then every readable one mutated at once, on all cores.
    let prepared: Vec<Result<Vec<Expectation>, String>> =
        collection.entries.iter().map(checks_of).collect();
    let runs: Vec<(&Transcript, &[Expectation])> = collection
        .entries
        .iter()
        .zip(&prepared)
        .filter_map(|(e, p)| {
            p.as_ref()
                .ok()
                .map(|c| (&e.report.transcript, c.as_slice()))
        })
        .collect();
    let mut mutated = mutate_many(&runs).into_iter();
    let scenarios: Vec<Scenario> = collection
        .entries
        .iter()
        .zip(prepared)
        .map(|(e, p)| Scenario {
            name: e.key(),
            source: e.source.clone(),
            outcome: p.and_then(|_| {
                mutated
                    .next()
                    .unwrap_or_else(|| Err("not mutated".to_owned()))
            }),
        })
        .collect();
    let (killed, survived) = scenarios
        .iter()
        .filter_map(|s| s.outcome.as_ref().ok())
        .fold((0, 0), |(k, s), m| (k + m.killed(), s + m.survived()));
    #[allow(clippy::cast_precision_loss)]
    let score = (killed + survived > 0).then(|| killed as f64 / (killed + survived) as f64);
    match args.format {
        MutateFormat::Json => println!("{}", as_json(&scenarios, score)),
        MutateFormat::Text => print!("{}", as_text(&scenarios, score)),
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

fn shown(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn percent(score: f64) -> String {
    format!("{:.1}%", score * 100.0)
}

fn as_text(scenarios: &[Scenario], score: Option<f64>) -> String {
    let mut out = String::new();
    for s in scenarios {
        match &s.outcome {
            Err(why) => out.push_str(&format!("{}: not mutated: {why}\n", s.name)),
            Ok(m) => {
                out.push_str(&format!(
                    "{}: {} ({} killed, {} survived, {} equivalent, {} errored)\n",
                    s.name,
                    m.score().map_or_else(|| "no score".to_owned(), percent),
                    m.killed(),
                    m.survived(),
                    m.equivalent(),
                    m.errored()
                ));
                for o in &m.mutants {
                    if let Fate::Survived { readers } = &o.fate {
                        let by = if readers.is_empty() {
                            "no check reads it".to_owned()
                        } else {
                            format!("unnoticed by {}", readers.join("; "))
                        };
                        out.push_str(&format!("  survived: {} ({by})\n", o.change));
                    }
                }
            }
        }
    }
    out.push_str(&format!(
        "mutation score: {}\n",
        score.map_or_else(|| "none (nothing measured)".to_owned(), percent)
    ));
    out
}

fn as_json(scenarios: &[Scenario], score: Option<f64>) -> Value {
    let scenarios: Vec<Value> = scenarios
        .iter()
        .map(|s| match &s.outcome {
            Err(why) => json!({"scenario": s.name, "source": s.source, "error": why}),
            Ok(m) => json!({
                "scenario": s.name,
                "source": s.source,
                "score": m.score(),
                "killed": m.killed(),
                "survived": m.survived(),
                "equivalent": m.equivalent(),
                "errored": m.errored(),
                "mutants": m.mutants,
            }),
        })
        .collect();
    json!({"score": score, "scenarios": scenarios})
}
