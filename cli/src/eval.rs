//! `agent-test eval`: scenarios evaluated on recorded runs, in parallel, calling nothing.
//!
//! Workers take the runs in turn: each reads its run, evaluates it with the scenario of the
//! same name and hands back only what the output needs; the results are written in the order
//! of the runs as they come ([`Sink`]), so memory holds the scenarios and the runs in flight,
//! never every run or every report.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use agent_test_runtime::RecordedRun;
use agent_test_runtime::ScenarioEvaluator;
use agent_test_runtime::judge::Judge;
use agent_test_runtime::load;
use agent_test_runtime::scenario::Scenario;
use agent_test_runtime::trace::TraceFormat;

use crate::args::{EvalArgs, OutputFormat};
use crate::inputs::Loaded;
use crate::output::{Kept, RunResult, Sink};

/// An evaluation ready to go: its inputs are found and its scenarios prepared.
pub(crate) struct Evaluation {
    inputs: Vec<Input>,
    scenarios: Scenarios,
    judge: Option<Judge>,
    trace_format: Option<TraceFormat>,
    format: OutputFormat,
    jobs: usize,
}

/// A recording to evaluate: a file, or one a scenario file carried (MorganaBench `outputs`),
/// taken by the worker that evaluates it.
enum Input {
    File(PathBuf),
    Carried(String, Mutex<Option<Box<RecordedRun>>>),
}

impl Evaluation {
    /// Finds the runs (in the shard, if one is named) and prepares the scenarios; `Err` is a
    /// message for the user (nothing has been written yet).
    pub(crate) fn prepare(args: &EvalArgs, loaded: Loaded) -> Result<Self, String> {
        let shard = args.work.shard;
        let inputs: Vec<Input> = if args.runs.is_empty() {
            if loaded.recordings.is_empty() {
                return Err(
                    "--runs is required: the recorded runs or traces to evaluate (the scenario \
                     files carry none)"
                        .into(),
                );
            }
            loaded
                .recordings
                .into_iter()
                .filter(|(_, run)| shard.is_none_or(|s| s.holds(&run.scenario.name)))
                .map(|(label, run)| Input::Carried(label, Mutex::new(Some(Box::new(run)))))
                .collect()
        } else {
            let files = load::files(&args.runs, load::RUN_EXTENSIONS)?;
            if files.is_empty() {
                return Err("--runs: no .json files found".into());
            }
            files
                .into_iter()
                .filter(|f| shard.is_none_or(|s| s.holds(&f.to_string_lossy())))
                .map(Input::File)
                .collect()
        };
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Ok(Evaluation {
            jobs: args
                .work
                .jobs
                .map_or(cores, usize::from)
                .min(inputs.len())
                .max(1),
            inputs,
            scenarios: Scenarios::new(loaded.scenarios),
            // Judge checks are graded by the judge the environment names
            // (AGENT_TEST_JUDGE_MODEL, ...), with its cache: AGENT_TEST_JUDGE_MODE=replay
            // evaluates them with no network at all.
            judge: crate::judge(&args.judge),
            trace_format: args.trace_format,
            format: args.output.format,
        })
    }

    /// Evaluates every run, writing each result to `sink` in the order of the runs.
    pub(crate) fn execute<W: Write>(self, sink: &mut Sink<W>) -> std::io::Result<()> {
        let next = AtomicUsize::new(0);
        // Bounded: a writer slower than the workers holds them back instead of the results
        // piling up.
        let (send, receive) = mpsc::sync_channel::<(usize, RunResult)>(self.jobs * 4);
        std::thread::scope(|s| {
            for _ in 0..self.jobs {
                let send = send.clone();
                let (next, this) = (&next, &self);
                s.spawn(move || {
                    // Only judge checks need async work; the runtime is made once per worker.
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .ok();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(input) = this.inputs.get(i) else {
                            break;
                        };
                        let result = this.evaluate_one(input, runtime.as_ref());
                        if send.send((i, result)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(send);
            for (i, result) in receive {
                sink.push(i, result)?;
            }
            Ok(())
        })
    }

    fn evaluate_one(&self, input: &Input, runtime: Option<&tokio::runtime::Runtime>) -> RunResult {
        let (source, run) = match input {
            Input::Carried(label, run) => {
                let taken = run.lock().ok().and_then(|mut r| r.take());
                match taken {
                    Some(r) => (label.clone(), *r),
                    None => return unreadable(label.clone(), "the recording was already taken"),
                }
            }
            Input::File(file) => match load::run(file, self.trace_format) {
                Ok(r) => (file.display().to_string(), r),
                Err(e) => return unreadable(file.display().to_string(), &e.to_string()),
            },
        };
        let evaluator = match self.scenarios.find(&run.scenario.name) {
            Ok(e) => e,
            Err(e) => {
                return RunResult {
                    source,
                    scenario: run.scenario.name,
                    outcome: Err(e),
                };
            }
        };
        let mut report = match runtime {
            Some(rt) if evaluator.needs_judge() => {
                rt.block_on(evaluator.evaluate_judged(run.transcript, self.judge.as_ref()))
            }
            _ => evaluator.evaluate(run.transcript),
        };
        report.scenario.module = run.scenario.module;
        RunResult {
            source,
            scenario: evaluator.name().to_owned(),
            // The recording is the input: the output names it rather than repeating it.
            outcome: Ok(Kept::of(&report, self.format, false)),
        }
    }
}

fn unreadable(source: String, why: &str) -> RunResult {
    RunResult {
        source,
        scenario: String::new(),
        outcome: Err(why.to_owned()),
    }
}

/// The scenarios, each prepared once for every run it evaluates, found by name.
struct Scenarios {
    evaluators: Vec<ScenarioEvaluator>,
    by_name: HashMap<String, usize>,
}

impl Scenarios {
    /// Prepares the scenarios, dropping each once prepared.
    fn new(scenarios: Vec<Scenario>) -> Self {
        let mut by_name = HashMap::with_capacity(scenarios.len());
        let mut evaluators = Vec::with_capacity(scenarios.len());
        for (i, s) in scenarios.into_iter().enumerate() {
            by_name.entry(s.name.clone()).or_insert(i);
            evaluators.push(ScenarioEvaluator::from(s));
        }
        Scenarios {
            evaluators,
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
