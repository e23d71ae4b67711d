//! `agent-test eval`: scenarios evaluated on recorded runs, in parallel, calling nothing.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use agent_test_runtime::RecordedRun;
use agent_test_runtime::ScenarioEvaluator;
use agent_test_runtime::judge::Judge;
use agent_test_runtime::scenario::Scenario;

use crate::args::EvalArgs;
use crate::inputs::{self, Loaded, RUN_EXTENSIONS, load_run};
use crate::output::{Kept, RunResult};

/// Evaluates every run with its scenario.
pub(crate) fn eval(args: &EvalArgs, loaded: &Loaded) -> Result<Vec<RunResult>, String> {
    let files;
    let inputs: Vec<Input<'_>> = if args.runs.is_empty() {
        if loaded.recordings.is_empty() {
            return Err(
                "--runs is required: the recorded runs or traces to evaluate (the scenario files \
                 carry none)"
                    .into(),
            );
        }
        loaded
            .recordings
            .iter()
            .map(|(label, run)| Input::Carried(label, run))
            .collect()
    } else {
        files = inputs::files(&args.runs, RUN_EXTENSIONS)?;
        if files.is_empty() {
            return Err("--runs: no .json files found".into());
        }
        files.iter().map(|f| Input::File(f)).collect()
    };
    let scenarios = Scenarios::new(&loaded.scenarios);
    // Judge checks are graded by the judge the environment names (AGENT_TEST_JUDGE_MODEL, ...),
    // with its cache: AGENT_TEST_JUDGE_MODE=replay evaluates them with no network at all.
    let judge = crate::judge(&args.common);
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<RunResult>>> = inputs.iter().map(|_| Mutex::new(None)).collect();
    let workers = args.jobs.min(inputs.len()).max(1);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                // Only judge checks need async work; the runtime is made once per worker.
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .ok();
                let grader = Grader {
                    judge: judge.as_ref(),
                    runtime: runtime.as_ref(),
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(input) = inputs.get(i) else { break };
                    let result = evaluate_one(input, &scenarios, &grader, args);
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

/// The scenarios, each prepared once for every run it evaluates, found by name.
struct Scenarios {
    evaluators: Vec<ScenarioEvaluator>,
    by_name: HashMap<String, usize>,
}

impl Scenarios {
    fn new(scenarios: &[Scenario]) -> Self {
        let mut by_name = HashMap::new();
        for (i, s) in scenarios.iter().enumerate() {
            by_name.entry(s.name.clone()).or_insert(i);
        }
        Scenarios {
            evaluators: scenarios.iter().map(Scenario::evaluator).collect(),
            by_name,
        }
    }

    /// The scenario of a recording: the one with its name, or the only one there is.
    fn find(&self, name: &str) -> Result<&ScenarioEvaluator, String> {
        match self.by_name.get(name) {
            Some(&i) => Ok(&self.evaluators[i]),
            None if self.evaluators.len() == 1 => Ok(&self.evaluators[0]),
            None => {
                let names: Vec<&str> = self.evaluators.iter().map(|e| e.name()).collect();
                Err(format!(
                    "no scenario named `{name}` (the scenarios are: {})",
                    names.join(", ")
                ))
            }
        }
    }
}

/// What grades judge checks on a worker.
struct Grader<'a> {
    judge: Option<&'a Judge>,
    runtime: Option<&'a tokio::runtime::Runtime>,
}

/// A recording to evaluate: a file, or one a scenario file carried (MorganaBench `outputs`).
enum Input<'a> {
    File(&'a Path),
    Carried(&'a str, &'a RecordedRun),
}

fn evaluate_one(
    input: &Input<'_>,
    scenarios: &Scenarios,
    grader: &Grader<'_>,
    args: &EvalArgs,
) -> RunResult {
    let (source, run) = match input {
        Input::Carried(label, run) => ((*label).to_owned(), (*run).clone()),
        Input::File(file) => match load_run(file, args.trace_format) {
            Ok(r) => (file.display().to_string(), r),
            Err(e) => {
                return RunResult {
                    source: file.display().to_string(),
                    scenario: String::new(),
                    outcome: Err(e.to_string()),
                };
            }
        },
    };
    let evaluator = match scenarios.find(&run.scenario.name) {
        Ok(e) => e,
        Err(e) => {
            return RunResult {
                source,
                scenario: run.scenario.name,
                outcome: Err(e),
            };
        }
    };
    let mut report = match grader.runtime {
        Some(rt) if evaluator.needs_judge() => {
            rt.block_on(evaluator.evaluate_judged(run.transcript, grader.judge))
        }
        _ => evaluator.evaluate(run.transcript),
    };
    report.scenario.module = run.scenario.module;
    RunResult {
        source,
        scenario: evaluator.name().to_owned(),
        // The recording is the input file: the output names it rather than repeating it.
        outcome: Ok(Kept::of(report, args.common.format, false)),
    }
}
