//! The `agent-test` command: evaluate recorded agent runs against scenarios without calling
//! anything (`eval`), or drive live HTTP and OpenAI-compatible agents through them (`run`).
//! Run `agent-test --help` for the options.

// External data (runs, scenarios, replies) must never crash the command: it reports errors instead.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

/// The command allocates many small values (every check of every scenario, every verdict) on
/// several threads at once: glibc's allocator spent a sixth of `eval`'s time in its arena locks
/// and consolidation; mimalloc's thread-local free lists do not contend.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod args;
mod calibrate;
mod cassette;
mod cost;
mod eval;
mod inputs;
mod mutate;
mod output;
mod proxy;
mod report;
mod review;
mod run;
mod shard;
mod style;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory, Parser};

use args::{CassetteCommand, Cli, Command, JudgeCommand, JudgeOptions, Output};
use inputs::Loaded;
use output::Sink;

fn main() -> ExitCode {
    // Usage errors exit with 2, `--help` and `--version` with 0 (clap's own conventions).
    let cli = Cli::parse();
    let started = Instant::now();
    let code = match &cli.command {
        Command::Completions { shell } => {
            clap_complete::generate(
                *shell,
                &mut Cli::command(),
                "agent-test",
                &mut std::io::stdout(),
            );
            return ExitCode::SUCCESS;
        }
        Command::Report(a) => return report::report(a),
        Command::Diff(a) => return report::diff(a),
        Command::Mutate(a) => return mutate::run(a),
        Command::Judge(JudgeCommand::Calibrate(a)) => return calibrate::run(a),
        Command::Proxy(a) => return proxy::serve(a),
        Command::Cassette(CassetteCommand::Unused(a)) => return cassette::unused_entries(a),
        Command::Review(a) => return review::run(a),
        Command::Eval(a) => execute(&a.output, a.work.shard, started, || {
            let evaluation = if a.runs.is_empty() {
                eval::Evaluation::carried(a)?
            } else {
                let loaded = Loaded::read(&a.inputs)?;
                eval::Evaluation::with_runs(a, loaded).map_err(|e| vec![e])?
            };
            Ok(Job::Eval(Box::new(evaluation)))
        }),
        Command::Run(a) => execute(&a.output, a.work.shard, started, || {
            // The agent's options first: a wrong option is named before any file is read.
            let agent = run::AgentTemplate::new(a).map_err(|e| vec![e])?;
            let loaded = Loaded::read(&a.inputs)?;
            let live = run::LiveRun::prepare(a, agent, loaded.scenarios).map_err(|e| vec![e])?;
            Ok(Job::Run(Box::new(live)))
        }),
    };
    // The suite's data is freed by the process's end, not one allocation at a time.
    std::mem::forget(cli);
    code
}

/// A command ready to go.
enum Job<'a> {
    Eval(Box<eval::Evaluation>),
    Run(Box<run::LiveRun<'a>>),
}

impl Job<'_> {
    /// How many runs it makes.
    fn len(&self) -> usize {
        match self {
            Job::Eval(e) => e.len(),
            Job::Run(r) => r.len(),
        }
    }
}

/// Prepares the job (reading every input: a wrong one is exit status 2 before anything is
/// written), then runs it, writing results as they come.
fn execute<'a>(
    output: &Output,
    shard: Option<shard::Shard>,
    started: Instant,
    prepare: impl FnOnce() -> Result<Job<'a>, Vec<String>>,
) -> ExitCode {
    let job = match prepare() {
        Ok(j) => j,
        Err(errors) => {
            for e in errors {
                eprintln!("agent-test: {e}");
            }
            return ExitCode::from(2);
        }
    };
    // Nothing to do "passes" nothing: an error, except for a shard that holds none of the
    // suite (more machines than runs), which is said and writes an empty document.
    if job.len() == 0 {
        match shard {
            Some(shard) => eprintln!("agent-test: shard {shard} holds none of the suite's runs"),
            None => {
                eprintln!("agent-test: nothing to run: the inputs hold no run or scenario");
                return ExitCode::from(2);
            }
        }
    }
    let out: Box<dyn Write> = match &output.output {
        Some(path) => match File::create(path) {
            Ok(f) => Box::new(BufWriter::new(f)),
            Err(e) => {
                eprintln!("agent-test: {}: cannot write: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let style = style::Style::new(style::colours_for_stdout(output.output.is_some()));
    let total = job.len();
    let written = Sink::new(output.format, output.quiet, out).and_then(|sink| {
        let mut sink = sink.styled(style).with_progress(total);
        match job {
            Job::Eval(e) => e.execute(&mut sink)?,
            Job::Run(r) => r.execute(&mut sink)?,
        }
        sink.finish(started.elapsed())
    });
    let totals = match written {
        Ok(t) => t,
        Err(e) => {
            let place = output
                .output
                .as_ref()
                .map_or("standard output".to_owned(), |p| p.display().to_string());
            eprintln!("agent-test: {place}: cannot write: {e}");
            return ExitCode::from(2);
        }
    };
    if output.stats {
        eprintln!(
            "agent-test: {} run{} in {:.3} s; peak memory {}",
            totals.runs,
            if totals.runs == 1 { "" } else { "s" },
            started.elapsed().as_secs_f64(),
            peak_memory().unwrap_or_else(|| "unknown".into())
        );
    }
    if totals.unreadable > 0 {
        ExitCode::from(2)
    } else if totals.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The judge the environment names, with the command line's timeout and retries (which win
/// over the environment's).
/// A command that could not do its work: the message on standard error, exit 2.
pub(crate) fn fail(message: &str) -> ExitCode {
    eprintln!("agent-test: {message}");
    ExitCode::from(2)
}

pub(crate) fn judge(options: &JudgeOptions) -> Option<agent_test_runtime::judge::Judge> {
    let mut judge = agent_test_runtime::judge::Judge::from_env_if_configured()?;
    if let Some(t) = options.judge_timeout {
        judge = judge.timeout(t);
    }
    if let Some(n) = options.judge_retries {
        judge = judge.retries(n);
    }
    Some(judge)
}

/// Peak resident memory (Linux's VmHWM).
fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .map(|v| v.trim().to_owned())
}
