//! `agent-test diff` of two mutation runs: the scores, and the mutants whose fate changed. A
//! mutant is named by its scenario and its change (mutants are made in a fixed order and
//! named by what they change), so the same mutant is found in both runs. A mutant killed
//! before that survives now is a check that got weaker: a regression (exit 1), as is a lower
//! suite score.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use agent_test_runtime::mutate::Fate;

use super::{Document, percent, unnoticed};

/// Whether `path` is a file holding a mutation run (`agent-test mutate --format json`): a JSON
/// object whose `scenarios` hold `mutants`.
pub(crate) fn is_document(path: &Path) -> bool {
    if !path.is_file() {
        return false;
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    value
        .pointer("/scenarios")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|s| s.iter().all(|s| s.get("mutants").is_some()))
        && value.get("score").is_some()
}

/// The mutation run in `path`, or why it cannot be read.
fn read(path: &Path) -> Result<Document, String> {
    let text = agent_test_runtime::load::read_text(path).map_err(|e| e.to_string())?;
    agent_test_runtime::load::load_json::<Document>(path, &text).map_err(|e| e.to_string())
}

/// Compares two mutation runs: prints the comparison, exits with 1 on a regression.
pub(crate) fn diff(base: &Path, new: &Path) -> ExitCode {
    let (b, n) = match (read(base), read(new)) {
        (Ok(b), Ok(n)) => (b, n),
        (b, n) => {
            for e in [b.err(), n.err()].into_iter().flatten() {
                eprintln!("agent-test: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let (text, regressed) = compare(
        &b,
        &n,
        &base.display().to_string(),
        &new.display().to_string(),
    );
    print!("{text}");
    if regressed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The comparison as text, and whether it is a regression.
fn compare(b: &Document, n: &Document, base: &str, new: &str) -> (String, bool) {
    let mut out = String::new();
    let score = |s: Option<f64>| s.map_or_else(|| "none".to_owned(), percent);
    let _ = writeln!(
        out,
        "mutation score: {} → {} ({base} → {new})",
        score(b.score),
        score(n.score)
    );
    let mut regressed = matches!((b.score, n.score), (Some(x), Some(y)) if y < x)
        || (b.score.is_some() && n.score.is_none());
    let before: HashMap<&str, &super::Scenario> = b
        .scenarios
        .iter()
        .map(|s| (s.scenario.as_str(), s))
        .collect();
    let mut weaker = Vec::new();
    let mut stronger = Vec::new();
    for s in &n.scenarios {
        let Some(old) = before.get(s.scenario.as_str()) else {
            let _ = writeln!(out, "new scenario: {} ({})", s.scenario, score(s.score));
            continue;
        };
        if old.score != s.score {
            let _ = writeln!(
                out,
                "{}: {} → {}",
                s.scenario,
                score(old.score),
                score(s.score)
            );
        }
        let fates: HashMap<&str, &Fate> = old
            .mutants
            .iter()
            .map(|m| (m.change.as_str(), &m.fate))
            .collect();
        for m in &s.mutants {
            match (fates.get(m.change.as_str()), &m.fate) {
                (Some(Fate::Killed { by }), Fate::Survived { readers }) => weaker.push(format!(
                    "{}: {} (killed before by {}; now {})",
                    s.scenario,
                    m.change,
                    by.join("; "),
                    unnoticed(readers)
                )),
                (Some(Fate::Survived { .. }), Fate::Killed { by }) => stronger.push(format!(
                    "{}: {} (now killed by {})",
                    s.scenario,
                    m.change,
                    by.join("; ")
                )),
                _ => {}
            }
        }
    }
    let now: std::collections::HashSet<&str> =
        n.scenarios.iter().map(|s| s.scenario.as_str()).collect();
    for s in b
        .scenarios
        .iter()
        .filter(|s| !now.contains(s.scenario.as_str()))
    {
        let _ = writeln!(out, "scenario gone: {}", s.scenario);
    }
    regressed |= !weaker.is_empty();
    for line in &weaker {
        let _ = writeln!(out, "now survives: {line}");
    }
    for line in &stronger {
        let _ = writeln!(out, "now killed: {line}");
    }
    let _ = writeln!(
        out,
        "{}",
        if regressed {
            "regression: the suite notices less than before"
        } else {
            "no regression"
        }
    );
    (out, regressed)
}
