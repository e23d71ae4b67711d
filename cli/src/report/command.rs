//! The `report` and `diff` subcommands.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use agent_test_runtime::report::report_root;

use super::{Collection, Comparison};
use crate::args::{DiffArgs, OutputFormat, ReportArgs};
use crate::fail;
use crate::output::{Kept, RunResult, Sink};

/// `agent-test report`: exit 0 when the page is written (whatever the verdicts: they are what
/// it shows), 2 when an input cannot be read or holds no report.
pub(crate) fn report(args: &ReportArgs) -> ExitCode {
    let paths = if args.paths.is_empty() {
        vec![report_root(None)]
    } else {
        args.paths.clone()
    };
    let collection = match read(&paths) {
        Ok(c) => c,
        Err(e) => return fail(&e),
    };
    let html = args.html.clone().unwrap_or_else(|| {
        let dir = match paths.first() {
            Some(first) if first.is_dir() => first.as_path(),
            Some(first) => first.parent().unwrap_or(Path::new(".")),
            None => Path::new("."),
        };
        dir.join("report.html")
    });
    let sources: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let page = super::page(&collection, &sources.join(", "), &args.title);
    if let Err(e) = write(&html, page.as_bytes()) {
        return fail(&e);
    }
    if let Some(junit) = &args.junit
        && let Err(e) = write_junit(&collection, junit)
    {
        return fail(&e);
    }
    if let Some(md) = &args.markdown {
        let text = super::markdown(&collection, &args.title);
        let written = if md.as_os_str() == "-" {
            print!("{text}");
            Ok(())
        } else {
            write(md, text.as_bytes())
        };
        if let Err(e) = written {
            return fail(&e);
        }
    }
    let github = args.github || std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true");
    if github || args.gitlab.is_some() {
        let found = super::annotations::annotations(&collection.entries);
        if github {
            print!("{}", super::annotations::github(&found));
        }
        if let Some(path) = &args.gitlab {
            let json = super::annotations::gitlab(&found).to_string();
            if let Err(e) = write(path, json.as_bytes()) {
                return fail(&e);
            }
        }
    }
    let stats = super::Stats::of(&collection.entries);
    eprintln!(
        "agent-test: wrote {} ({} scenario{}: {} passed, {} failed)",
        html.display(),
        stats.scenarios,
        if stats.scenarios == 1 { "" } else { "s" },
        stats.passed,
        stats.scenarios - stats.passed
    );
    if problems(&collection) {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// `agent-test diff`: exit 1 on a regression, 0 otherwise, 2 when an input is unreadable.
pub(crate) fn diff(args: &DiffArgs) -> ExitCode {
    // Two mutation runs are compared by their mutants, not their verdicts.
    let mutation = [&args.base, &args.new].map(|p| crate::mutate::is_document(p));
    if mutation[0] || mutation[1] {
        if mutation != [true, true] {
            eprintln!(
                "agent-test: compare a mutation run (`agent-test mutate --format json`) with \
                 another one"
            );
            return ExitCode::from(2);
        }
        if args.html.is_some() {
            eprintln!(
                "agent-test: --html is for runs' reports, not mutation runs: use `agent-test mutate --html`"
            );
            return ExitCode::from(2);
        }
        return crate::mutate::diff(&args.base, &args.new);
    }
    let (base, new) = match (
        read(std::slice::from_ref(&args.base)),
        read(std::slice::from_ref(&args.new)),
    ) {
        (Ok(b), Ok(n)) => (b, n),
        (b, n) => {
            // Both sides' errors, not only the first.
            for e in [b.err(), n.err()].into_iter().flatten() {
                eprintln!("agent-test: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let comparison = Comparison::of(&base, &new);
    let (b, n) = (
        args.base.display().to_string(),
        args.new.display().to_string(),
    );
    let comment = args.comment.as_ref().map(|path| {
        let text = super::comment::comment(&comparison, &b, &n, args.report_url.as_deref());
        (path, text)
    });
    match &comment {
        Some((path, text)) if path.as_os_str() == "-" => print!("{text}"),
        Some((path, text)) => {
            print!("{}", comparison.text(&b, &n));
            if let Err(e) = write(path, text.as_bytes()) {
                return fail(&e);
            }
        }
        None => print!("{}", comparison.text(&b, &n)),
    }
    if let Some(path) = &args.html
        && let Err(e) = write(path, comparison.html(&b, &n).as_bytes())
    {
        return fail(&e);
    }
    // Both sides' unreadable files are listed.
    let (b_bad, n_bad) = (problems(&base), problems(&new));
    if b_bad || n_bad {
        return ExitCode::from(2);
    }
    if comparison.regressed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The reports under `paths`; an error when there are none.
fn read(paths: &[PathBuf]) -> Result<Collection, String> {
    let c = Collection::read(paths)?;
    if c.entries.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let mut e = format!("no agent-test reports found in {}", shown.join(", "));
        if let Some(p) = c.problems.first() {
            e.push_str(&format!(" ({p})"));
        }
        return Err(e);
    }
    Ok(c)
}

/// Reports the files that could not be read; whether there were any.
fn problems(c: &Collection) -> bool {
    for p in &c.problems {
        eprintln!("agent-test: not read: {p}");
    }
    !c.problems.is_empty()
}

fn write_junit(c: &Collection, path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    let file = std::fs::File::create(path)
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    let error = |e: std::io::Error| format!("{}: cannot write: {e}", path.display());
    let mut sink =
        Sink::new(OutputFormat::Junit, false, std::io::BufWriter::new(file)).map_err(error)?;
    let mut total = 0u64;
    for (i, e) in c.entries.iter().enumerate() {
        // Saturating: a report read from a file may hold any duration.
        total = total.saturating_add(e.report.duration_ms);
        // A test case per scenario, classed by its module (else its file), as CI tools group
        // test cases.
        let scenario = &e.report.scenario;
        let result = RunResult {
            source: scenario.name.clone(),
            scenario: scenario.module.clone().unwrap_or_else(|| e.group()),
            outcome: Ok(Kept::of(&e.report, OutputFormat::Junit, false)),
        };
        sink.push(i, result).map_err(error)?;
    }
    sink.finish(Duration::from_millis(total)).map_err(error)?;
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}
