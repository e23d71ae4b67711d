//! `agent-test eval`: scenarios evaluated on recorded runs, in parallel, calling nothing.
//!
//! Workers take the runs in turn: each reads its run, evaluates it with the scenario of the
//! same name and hands back only what the output needs; the results are written in the order
//! of the runs as they come ([`Sink`]), so memory holds the scenarios and the runs in flight,
//! never every run or every report.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use agent_test_runtime::ScenarioEvaluator;
use agent_test_runtime::judge::Judge;
use agent_test_runtime::load::{self, CaseFile, LoadError};
use agent_test_runtime::report::Report;
use agent_test_runtime::report::prices::Prices;
use agent_test_runtime::scenario::Scenario;
use agent_test_runtime::trace::TraceFormat;

use crate::args::{EvalArgs, OutputFormat};
use crate::inputs::Loaded;
use crate::output::{Kept, RunResult, Sink};

/// An evaluation ready to go: its inputs are found and its scenarios prepared.
pub(crate) struct Evaluation {
    inputs: Vec<Input>,
    /// The scenarios runs are matched to by name (with `--runs`).
    scenarios: Scenarios,
    /// The scenario files whose cases carry their own recordings (without `--runs`).
    case_files: Vec<CaseFile>,
    judge: Option<Judge>,
    /// Prices each run's turns (`--prices`); the scenarios of `--runs` are priced with it.
    prices: Option<Prices>,
    trace_format: Option<TraceFormat>,
    format: OutputFormat,
    jobs: usize,
}

/// What one worker evaluates: a run file (with the scenario of its name), or a case of a
/// scenario file with the recording it carries (MorganaBench `outputs`), read by the worker.
enum Input {
    File(PathBuf),
    Case { file: usize, index: usize },
}

impl Evaluation {
    /// Runs given on the command line, each matched to the scenario of its name: finds the
    /// runs (of the shard, if one is named: by file) and prepares the scenarios; `Err` is a
    /// message for the user (nothing has been written yet).
    pub(crate) fn with_runs(args: &EvalArgs, loaded: Loaded) -> Result<Self, String> {
        let files = load::files(&args.runs, load::RUN_EXTENSIONS).map_err(|e| e.to_string())?;
        if files.is_empty() {
            return Err("--runs: no .json files found".into());
        }
        let shard = args.work.shard;
        let inputs = files
            .into_iter()
            .filter(|f| shard.is_none_or(|s| s.holds(&f.to_string_lossy())))
            .map(Input::File)
            .collect();
        let prices = args.pricing.load()?;
        let scenarios = Scenarios::new(loaded.scenarios, prices.as_ref());
        Ok(Self::new(args, inputs, scenarios, Vec::new(), prices))
    }

    /// The recordings the scenario files carry, each case evaluated on its own (of the shard,
    /// if one is named: by file and place). JSON lines are read by the workers, one case at a
    /// time, so a large suite is never in memory whole.
    pub(crate) fn carried(args: &EvalArgs) -> Result<Self, Vec<String>> {
        let case_files = crate::inputs::case_files(&args.inputs)?;
        if !case_files.iter().any(CaseFile::may_carry_recordings) {
            return Err(vec![
                "--runs is required: the recorded runs or traces to evaluate (the scenario files \
                 carry none)"
                    .into(),
            ]);
        }
        let shard = args.work.shard;
        let inputs = case_files
            .iter()
            .enumerate()
            .flat_map(|(file, f)| {
                (0..f.len())
                    .filter(move |i| {
                        shard.is_none_or(|s| s.holds(&format!("{}#{i}", f.path().display())))
                    })
                    .map(move |index| Input::Case { file, index })
            })
            .collect();
        let prices = args.pricing.load().map_err(|e| vec![e])?;
        Ok(Self::new(
            args,
            inputs,
            Scenarios::new(Vec::new(), None),
            case_files,
            prices,
        ))
    }

    fn new(
        args: &EvalArgs,
        inputs: Vec<Input>,
        scenarios: Scenarios,
        case_files: Vec<CaseFile>,
        prices: Option<Prices>,
    ) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Evaluation {
            jobs: args
                .work
                .jobs
                .map_or(cores, usize::from)
                .min(inputs.len())
                .max(1),
            inputs,
            scenarios,
            case_files,
            // Judge checks are graded by the judge the environment names
            // (AGENT_TEST_JUDGE_MODEL, ...), with its cache: AGENT_TEST_JUDGE_MODE=replay
            // evaluates them with no network at all.
            judge: crate::judge(&args.judge),
            prices,
            trace_format: args.trace_format,
            format: args.output.format,
        }
    }

    /// How many runs it evaluates.
    pub(crate) fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Evaluates every run, writing each result to `sink` in the order of the runs.
    pub(crate) fn execute<W: Write>(self, sink: &mut Sink<W>) -> std::io::Result<()> {
        // The scenarios are freed by the process's exit: freeing 50,000 checks one by one took
        // a tenth of a large evaluation's time, spent after its last result was written.
        let this = std::mem::ManuallyDrop::new(self);
        let this = &*this;
        let next = AtomicUsize::new(0);
        // Workers take runs a batch at a time and hand back a batch's results in one message:
        // a message per run would wake the writer ten thousand times for ten thousand runs.
        // Small enough that every worker gets work and results come out as they go.
        let batch = (this.inputs.len() / (this.jobs * 8)).clamp(1, 64);
        // Bounded: a writer slower than the workers holds them back instead of the results
        // piling up.
        let (send, receive) = mpsc::sync_channel::<(usize, Vec<RunResult>)>(this.jobs * 2);
        std::thread::scope(|s| {
            for _ in 0..this.jobs {
                let send = send.clone();
                let next = &next;
                s.spawn(move || {
                    // Only judge checks need async work; the runtime is made once per worker.
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .ok();
                    loop {
                        let first = next.fetch_add(batch, Ordering::Relaxed);
                        let Some(inputs) = this.inputs.get(first..) else {
                            break;
                        };
                        if inputs.is_empty() {
                            break;
                        }
                        let results = inputs
                            .iter()
                            .take(batch)
                            .map(|input| this.evaluate_one(input, runtime.as_ref()))
                            .collect();
                        if send.send((first, results)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(send);
            for (first, results) in receive {
                for (i, result) in results.into_iter().enumerate() {
                    sink.push(first + i, result)?;
                }
            }
            Ok(())
        })
    }

    fn evaluate_one(&self, input: &Input, runtime: Option<&tokio::runtime::Runtime>) -> RunResult {
        match input {
            Input::File(file) => {
                let source = file.display().to_string();
                let run = match load::run(file, self.trace_format) {
                    Ok(r) => r,
                    Err(e) => return unreadable(source, &e.to_string()),
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
                let mut report = self.evaluate(evaluator, run.transcript, runtime);
                report.scenario.module = run.scenario.module;
                self.result(source, report)
            }
            Input::Case { file, index } => {
                let Some(f) = self.case_files.get(*file) else {
                    return unreadable(String::new(), "no such scenario file");
                };
                let case = match f.take(*index) {
                    Ok(c) => c,
                    Err(e) => return unreadable(f.path().display().to_string(), &place(&e)),
                };
                let source = format!("{} ({})", f.path().display(), case.scenario.name);
                let Some(run) = case.recording else {
                    return RunResult {
                        source,
                        scenario: case.scenario.name,
                        outcome: Err("the case carries no recorded run to evaluate it on (give \
                                      its runs with --runs)"
                            .into()),
                    };
                };
                let evaluator = ScenarioEvaluator::from(case.scenario)
                    .priced(self.prices.clone())
                    .without_checks_data();
                let report = self.evaluate(&evaluator, run.transcript, runtime);
                self.result(source, report)
            }
        }
    }

    fn evaluate(
        &self,
        evaluator: &ScenarioEvaluator,
        transcript: agent_test_runtime::model::Transcript,
        runtime: Option<&tokio::runtime::Runtime>,
    ) -> Report {
        match runtime {
            Some(rt) if evaluator.needs_judge() => {
                rt.block_on(evaluator.evaluate_judged(transcript, self.judge.as_ref()))
            }
            _ => evaluator.evaluate(transcript),
        }
    }

    fn result(&self, source: String, report: Report) -> RunResult {
        RunResult {
            source,
            scenario: report.scenario.name.clone(),
            // The recording is an input: the output names it rather than repeating it.
            outcome: Ok(Kept::of(&report, self.format, false)),
        }
    }
}

/// A case's load error without its file (the output's line names the file).
fn place(e: &LoadError) -> String {
    if e.path.is_empty() {
        e.message.clone()
    } else {
        format!("at {}: {}", e.path, e.message)
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
    /// Prepares the scenarios (priced with `prices`), dropping each once prepared.
    fn new(scenarios: Vec<Scenario>, prices: Option<&Prices>) -> Self {
        let mut by_name = HashMap::with_capacity(scenarios.len());
        for (i, s) in scenarios.iter().enumerate() {
            by_name.entry(s.name.clone()).or_insert(i);
        }
        // The output names each run rather than repeating it: nothing is evaluated again
        // from it, so the checks are not written out either.
        let evaluators = map_on_cores(scenarios, |s| {
            ScenarioEvaluator::from(s)
                .priced(prices.cloned())
                .without_checks_data()
        });
        Scenarios {
            evaluators,
            by_name,
        }
    }

    /// The scenario of a recording: the one with its name, or the only one there is.
    fn find(&self, name: &str) -> Result<&ScenarioEvaluator, String> {
        if let Some(found) = self.by_name.get(name).and_then(|&i| self.evaluators.get(i)) {
            return Ok(found);
        }
        match self.evaluators.as_slice() {
            [only] => Ok(only),
            all => {
                let names: Vec<&str> = all.iter().map(|e| e.name()).collect();
                Err(format!(
                    "no scenario named `{name}` (the scenarios are: {})",
                    names.join(", ")
                ))
            }
        }
    }
}

/// `items` mapped with `f` on every core, in their order: a large suite's scenarios are all
/// prepared before the first run is evaluated, and one core doing it left the others waiting.
fn map_on_cores<T: Send, U: Send>(items: Vec<T>, f: impl Fn(T) -> U + Sync) -> Vec<U> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if cores < 2 || items.len() < 1024 {
        return items.into_iter().map(f).collect();
    }
    let per_core = items.len().div_ceil(cores);
    let mut items = items.into_iter();
    let chunks: Vec<Vec<T>> = std::iter::from_fn(|| {
        let chunk: Vec<T> = items.by_ref().take(per_core).collect();
        (!chunk.is_empty()).then_some(chunk)
    })
    .collect();
    let f = &f;
    std::thread::scope(|s| {
        let workers: Vec<_> = chunks
            .into_iter()
            .map(|chunk| s.spawn(move || chunk.into_iter().map(f).collect::<Vec<U>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::map_on_cores;

    #[test]
    fn mapping_on_cores_keeps_the_order() {
        let items: Vec<usize> = (0..5000).collect();
        let doubled = map_on_cores(items, |i| i * 2);
        assert_eq!(doubled, (0..5000).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(map_on_cores(vec![3, 1], |i| i + 1), [4, 2]);
        assert!(map_on_cores(Vec::<u8>::new(), |i| i).is_empty());
    }
}
