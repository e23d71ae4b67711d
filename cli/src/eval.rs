//! `agent-test eval`: scenarios evaluated on recorded runs, in parallel, calling nothing.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use agent_test_runtime::model::Scenario;

use crate::args::EvalArgs;
use crate::inputs::{json_files, load_run};
use crate::output::{Kept, RunResult};

/// Evaluates every run with its scenario.
pub(crate) fn eval(args: &EvalArgs, scenarios: &[Scenario]) -> Result<Vec<RunResult>, String> {
    let files = json_files(&args.runs)?;
    if files.is_empty() {
        return Err("--runs: no .json files found".into());
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<RunResult>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let workers = args.jobs.min(files.len()).max(1);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(file) = files.get(i) else { break };
                    let result = evaluate_one(file, scenarios, args);
                    if let Some(slot) = slots.get(i)
                        && let Ok(mut g) = slot.lock()
                    {
                        *g = Some(result);
                    }
                }
            });
        }
    });
    Ok(slots
        .into_iter()
        .filter_map(|s| s.into_inner().ok().flatten())
        .collect())
}

fn evaluate_one(file: &Path, scenarios: &[Scenario], args: &EvalArgs) -> RunResult {
    let source = file.display().to_string();
    let run = match load_run(file, args.trace_format) {
        Ok(r) => r,
        Err(e) => {
            return RunResult {
                source,
                scenario: String::new(),
                outcome: Err(e.to_string()),
            };
        }
    };
    let scenario = match scenarios.iter().find(|s| s.name == run.scenario.name) {
        Some(s) => s,
        None if scenarios.len() == 1 => &scenarios[0],
        None => {
            let names: Vec<&str> = scenarios.iter().map(|s| s.name.as_str()).collect();
            return RunResult {
                source,
                scenario: run.scenario.name.clone(),
                outcome: Err(format!(
                    "no scenario named `{}` (the scenarios are: {})",
                    run.scenario.name,
                    names.join(", ")
                )),
            };
        }
    };
    let mut report = scenario.evaluate(&run.transcript);
    report.scenario.module = run.scenario.module.clone();
    RunResult {
        source,
        scenario: scenario.name.clone(),
        outcome: Ok(Kept::of(&report, args.common.format)),
    }
}
