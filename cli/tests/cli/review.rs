//! `agent-test review`: pending snapshots shown as diffs, accepted, rejected or skipped one by
//! one from standard input, or all at once.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use agent_test_runtime::snapshot::SnapshotFile;

use crate::support::command::{assert_exit, bin, stderr, stdout, temp};

/// A snapshot directory of three pending changes: one to a reply, one new snapshot, one to a
/// trajectory.
fn three_pending(dir: &Path) {
    let snaps = dir.join("tests/snapshots");
    std::fs::create_dir_all(&snaps).unwrap();
    let write =
        |name: &str, f: &SnapshotFile| std::fs::write(snaps.join(name), f.render()).unwrap();
    let greet = SnapshotFile::new("greets", "reply().snapshot()", "reply", "Hello!");
    write("suite__greets__1.snap", &greet);
    write(
        "suite__greets__1.snap.new",
        &SnapshotFile {
            content: "Hello! How can I help?".into(),
            ..greet
        },
    );
    write(
        "suite__refund__1.snap.new",
        &SnapshotFile::new(
            "refund",
            "reply().snapshot()",
            "reply",
            "Refunded.\nAnything else?",
        ),
    );
    let calls = SnapshotFile::new("refund", "any_tool().snapshot()", "tool calls", "[]");
    write("suite__refund__2.snap", &calls);
    write(
        "suite__refund__2.snap.new",
        &SnapshotFile {
            content: "[\n  {\n    \"tool\": \"refund\"\n  }\n]".into(),
            ..calls
        },
    );
    // What review never searches.
    let built = dir.join("target/snapshots");
    std::fs::create_dir_all(&built).unwrap();
    std::fs::write(built.join("x__y__1.snap.new"), "garbage").unwrap();
}

fn content(path: &Path) -> String {
    SnapshotFile::parse(&std::fs::read_to_string(path).unwrap())
        .unwrap()
        .content
}

#[test]
fn each_pending_snapshot_is_accepted_rejected_or_skipped_as_answered() {
    let dir = temp("review-each");
    three_pending(&dir);
    let mut child = bin()
        .arg("review")
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // An answer it does not know is asked again.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a\nmaybe\nr\ns\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_exit(&out, 0);
    let printed = stdout(&out);
    let snaps = dir.join("tests/snapshots");
    assert!(
        printed.contains(
            "[1/3] ./tests/snapshots/suite__greets__1.snap.new\n  scenario: greets\n  check: \
             reply().snapshot()\n  of: reply\n  changes ./tests/snapshots/suite__greets__1.snap\n  \
             Hello!{+ How can I help?+}\n"
        ),
        "{printed}"
    );
    assert!(
        printed.contains("new snapshot\n  + Refunded.\n  + Anything else?\n"),
        "{printed}"
    );
    assert!(printed.contains("`maybe`: answer a, r or s"), "{printed}");
    assert!(
        printed.contains("  - []\n  + [\n  +   {\n  +     \"tool\": \"refund\"\n  +   }\n  + ]\n"),
        "{printed}"
    );
    assert_eq!(
        stderr(&out),
        "agent-test: 3 pending snapshots: 1 accepted, 1 rejected, 1 left pending\n"
    );
    // Accepted: the change is the snapshot. Rejected: the new one is gone, the old one stays.
    // Skipped: still pending.
    assert_eq!(
        content(&snaps.join("suite__greets__1.snap")),
        "Hello! How can I help?"
    );
    assert!(!snaps.join("suite__greets__1.snap.new").exists());
    assert!(!snaps.join("suite__refund__1.snap.new").exists());
    assert!(!snaps.join("suite__refund__1.snap").exists());
    assert_eq!(content(&snaps.join("suite__refund__2.snap")), "[]");
    assert!(snaps.join("suite__refund__2.snap.new").exists());
    assert!(dir.join("target/snapshots/x__y__1.snap.new").exists());
}

#[test]
fn accept_all_reject_all_and_list() {
    let dir = temp("review-all");
    three_pending(&dir);
    let snaps = dir.join("tests/snapshots");

    let out = bin().args(["review", "--list"]).arg(&dir).output().unwrap();
    assert_exit(&out, 0);
    assert_eq!(
        stderr(&out),
        "agent-test: 3 pending snapshots: 0 accepted, 0 rejected, 3 left pending\n"
    );
    assert_eq!(stdout(&out).matches("snap.new\n").count(), 3);

    let out = bin()
        .args(["review", "--accept-all"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    assert_eq!(
        stderr(&out),
        "agent-test: 3 pending snapshots: 3 accepted, 0 rejected, 0 left pending\n"
    );
    assert_eq!(
        content(&snaps.join("suite__refund__1.snap")),
        "Refunded.\nAnything else?"
    );

    three_pending(&dir);
    let out = bin()
        .args(["review", "--reject-all"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    assert_eq!(content(&snaps.join("suite__greets__1.snap")), "Hello!");
    assert!(!snaps.join("suite__refund__2.snap.new").exists());

    let out = bin()
        .args(["review", "--accept-all", "--reject-all"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_exit(&out, 2);
}

#[test]
fn a_garbled_pending_snapshot_changes_nothing() {
    let dir = temp("review-garbled");
    three_pending(&dir);
    let bad = dir.join("tests/snapshots/suite__zz__1.snap.new");
    std::fs::write(&bad, "Hello\n").unwrap();
    let out = bin()
        .args(["review", "--accept-all"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert_eq!(
        stderr(&out),
        format!(
            "agent-test: {}: line 1: expected `---`, the start of the header\n",
            bad.display()
        )
    );
    assert!(
        dir.join("tests/snapshots/suite__greets__1.snap.new")
            .exists()
    );
}
