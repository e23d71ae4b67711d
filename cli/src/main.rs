//! The `agent-test` command: evaluate recorded agent runs against scenarios without calling
//! anything (`eval`), or drive live HTTP and OpenAI-compatible agents through them (`run`).
//! Run `agent-test --help` for the options.

mod args;
mod eval;
mod inputs;
mod output;
mod run;

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use args::{Command, Common};

fn main() -> ExitCode {
    match args::parse(std::env::args_os().skip(1)) {
        Ok(Command::Help) => {
            println!("{}", args::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Version) => {
            println!("agent-test {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Ok(Command::Eval(a)) => execute(&a.common, |loaded| eval::eval(&a, loaded)),
        Ok(Command::Run(a)) => execute(&a.common, |loaded| run::run(&a, &loaded.scenarios)),
        Err(e) => {
            eprintln!("agent-test: {e}\n\nRun `agent-test --help` for the options.");
            ExitCode::from(2)
        }
    }
}

fn execute(
    common: &Common,
    go: impl FnOnce(&inputs::Loaded) -> Result<Vec<output::RunResult>, String>,
) -> ExitCode {
    let started = Instant::now();
    let scenarios = match load_all(common) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                eprintln!("agent-test: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let results = match go(&scenarios) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("agent-test: {e}");
            return ExitCode::from(2);
        }
    };
    let elapsed = started.elapsed();
    let text = output::render(&results, common.format, common.quiet, elapsed);
    let written = match &common.output {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))
        }
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string()),
    };
    if let Err(e) = written {
        eprintln!("agent-test: {e}");
        return ExitCode::from(2);
    }
    if common.stats {
        eprintln!(
            "agent-test: {} runs in {:.3} s; peak memory {}",
            results.len(),
            elapsed.as_secs_f64(),
            peak_memory().unwrap_or_else(|| "unknown".into())
        );
    }
    let totals = output::Totals::of(&results);
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
pub(crate) fn judge(common: &Common) -> Option<agent_test_runtime::judge::Judge> {
    let mut judge = agent_test_runtime::judge::Judge::from_env_if_configured()?;
    if let Some(t) = common.judge_timeout {
        judge = judge.timeout(t);
    }
    if let Some(n) = common.judge_retries {
        judge = judge.retries(n);
    }
    Some(judge)
}

/// Every scenario of every file, with the recordings the files carry; every unreadable file
/// is reported.
fn load_all(common: &Common) -> Result<inputs::Loaded, Vec<String>> {
    let files =
        inputs::files(&common.scenarios, inputs::SCENARIO_EXTENSIONS).map_err(|e| vec![e])?;
    if files.is_empty() {
        return Err(vec![
            "--scenarios: no .json, .jsonl, .yaml or .yml files found".into(),
        ]);
    }
    let mut loaded = inputs::Loaded::default();
    let mut errors = Vec::new();
    for f in &files {
        match inputs::load_scenarios(f, common.input_format) {
            Ok(l) => {
                loaded.scenarios.extend(l.scenarios);
                loaded.recordings.extend(l.recordings);
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    if errors.is_empty() {
        Ok(loaded)
    } else {
        Err(errors)
    }
}

/// Peak resident memory (Linux's VmHWM).
fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .map(|v| v.trim().to_owned())
}
