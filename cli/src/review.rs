//! `agent-test review`: each pending snapshot (`….snap.new`, written by a run whose reply or
//! calls differed from the accepted snapshot) shown as a diff, then accepted or rejected.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use agent_test_runtime::snapshot::Pending;

use crate::args::ReviewArgs;
use crate::fail;
use crate::style::{Style, colours_for_stdout};

/// What the reviewer decided for one pending snapshot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Decision {
    Accept,
    Reject,
    Skip,
}

/// Reviews the pending snapshots under the paths: exit 0, or 2 when one cannot be read or
/// written (nothing after it is changed).
pub(crate) fn run(args: &ReviewArgs) -> ExitCode {
    let roots = if args.paths.is_empty() {
        vec![std::path::PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let pending = match Pending::find(&roots) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let style = Style::new(colours_for_stdout(false));
    let stdin = std::io::stdin();
    let mut answers = stdin.lock().lines();
    let (mut accepted, mut rejected, mut skipped) = (0usize, 0usize, 0usize);
    for (i, p) in pending.iter().enumerate() {
        show(p, i + 1, pending.len(), style);
        let decision = if args.accept_all {
            Decision::Accept
        } else if args.reject_all {
            Decision::Reject
        } else if args.list {
            Decision::Skip
        } else {
            ask(&mut answers)
        };
        let done = match decision {
            Decision::Accept => p.accept().map(|()| {
                accepted += 1;
                println!("{}", style.pass("accepted"));
            }),
            Decision::Reject => p.reject().map(|()| {
                rejected += 1;
                println!("{}", style.fail("rejected"));
            }),
            Decision::Skip => {
                skipped += 1;
                Ok(())
            }
        };
        if let Err(e) = done {
            return fail(&format!("{}: {e}", p.path.display()));
        }
    }
    eprintln!(
        "agent-test: {} pending snapshot{}: {accepted} accepted, {rejected} rejected, {skipped} \
         left pending",
        pending.len(),
        if pending.len() == 1 { "" } else { "s" }
    );
    ExitCode::SUCCESS
}

/// One pending snapshot: where, whose, and the change.
fn show(p: &Pending, n: usize, of: usize, style: Style) {
    let was = match &p.old {
        None => "new snapshot".to_owned(),
        Some(Ok(_)) => format!("changes {}", p.accepted_path.display()),
        Some(Err(e)) => format!(
            "replaces {}, which cannot be read: {e}",
            p.accepted_path.display()
        ),
    };
    println!(
        "{} {}\n  scenario: {}\n  check: {}\n  of: {}\n  {was}",
        style.bold(&format!("[{n}/{of}]")),
        p.path.display(),
        p.new.scenario,
        p.new.check,
        p.new.of,
    );
    for line in p.diff().lines() {
        let painted = if line.starts_with("+ ") {
            style.pass(line)
        } else if line.starts_with("- ") {
            style.fail(line)
        } else {
            line.to_owned()
        };
        println!("  {painted}");
    }
}

/// Reads the reviewer's answer: `a` accepts, `r` rejects, `s` (or the end of the input)
/// leaves it pending; anything else asks again.
fn ask(answers: &mut impl Iterator<Item = std::io::Result<String>>) -> Decision {
    loop {
        print!("accept (a), reject (r) or skip (s)? ");
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = answers.next() else {
            println!();
            return Decision::Skip;
        };
        match line.trim() {
            "a" | "accept" => return Decision::Accept,
            "r" | "reject" => return Decision::Reject,
            "s" | "skip" => return Decision::Skip,
            other => println!("`{other}`: answer a, r or s"),
        }
    }
}
