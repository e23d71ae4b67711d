//! `agent-test cassette unused`: the entries of a cassette that no run used, by the reports of
//! runs through it (each report lists the entries its run used) and the logs proxies kept,
//! listed or deleted.

use std::path::PathBuf;
use std::process::ExitCode;

use agent_test_runtime::cassette::{entries, prune, unused};
use agent_test_runtime::report::report_root;

use crate::args::UnusedArgs;
use crate::fail;
use crate::report::Collection;

/// Lists (or prunes) the unused entries: exit 0, or 2 when an input cannot be read or the
/// pruning is refused.
pub(crate) fn unused_entries(args: &UnusedArgs) -> ExitCode {
    let dir = &args.cassette;
    if !dir.is_dir() {
        return fail(&format!("{}: no such cassette directory", dir.display()));
    }
    let reports: Vec<PathBuf> = if args.reports.is_empty() && args.used.is_empty() {
        vec![report_root(None)]
    } else {
        args.reports.clone()
    };
    let mut used: Vec<String> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    let mut read = 0usize;
    if !reports.is_empty() {
        match Collection::read(&reports) {
            Ok(c) => {
                read = c.entries.len();
                used.extend(
                    c.entries
                        .iter()
                        .flat_map(|e| e.report.cassette.iter().cloned()),
                );
                problems = c.problems;
            }
            Err(e) => return fail(&e),
        }
    }
    for log in &args.used {
        match std::fs::read_to_string(log) {
            Ok(text) => used.extend(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned),
            ),
            Err(e) => return fail(&format!("{}: cannot read: {e}", log.display())),
        }
    }
    for p in &problems {
        eprintln!("agent-test: {p}");
    }
    let total = match entries(dir) {
        Ok(ids) => ids.len(),
        Err(e) => return fail(e.message()),
    };
    let by = format!(
        "by {read} report{} and {} used log{}",
        if read == 1 { "" } else { "s" },
        args.used.len(),
        if args.used.len() == 1 { "" } else { "s" }
    );
    if args.prune {
        // A report that could not be read may name entries in use: deleting them would be
        // the wrong answer to a bad input.
        if !problems.is_empty() {
            return fail(&format!(
                "not pruning {}: {} input{} could not be read as reports, and may name entries in use",
                dir.display(),
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            ));
        }
        return match prune(dir, &used) {
            Ok(ids) => {
                for id in &ids {
                    println!("deleted {}", dir.join(format!("{id}.json")).display());
                }
                eprintln!(
                    "agent-test: pruned {} of {total} entries of {} ({by})",
                    ids.len(),
                    dir.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(e.message()),
        };
    }
    match unused(dir, &used) {
        Ok(ids) => {
            for id in &ids {
                println!("{}", dir.join(format!("{id}.json")).display());
            }
            eprintln!(
                "agent-test: {} of {total} entries of {} unused ({by})",
                ids.len(),
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(e.message()),
    }
}
