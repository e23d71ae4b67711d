#!/usr/bin/env python3
"""Checks that rust-analyzer completes check builders inside `agent_test!`, as an editor would.

usage: python3 scripts/ide_completion.py [--ra PATH_TO_RUST_ANALYZER]

Writes a probe file with incomplete checks (`expect tool("x").` with the cursor after the dot)
into the integration test crate, asks rust-analyzer for completions at each cursor with
../shared/tools/ra_complete.py, prints what it offered, and removes the probe. Exit code 0 when
every expected method is offered.

rust-analyzer is not preinstalled here: `cargo install ra_ap_rust-analyzer --version 0.0.340
--locked --root /opt/ra` builds it (newer versions need a newer compiler).
"""
import argparse, pathlib, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOOL = ROOT.parent / "shared" / "tools" / "ra_complete.py"
PROBE = ROOT / "tests" / "integration" / "ide_probe.rs"
MAIN = ROOT / "tests" / "integration" / "main.rs"

SOURCE = """use agent_test::prelude::*;

fn probe_agent() -> impl Agent {
    agent_fn(|_req| async move { "hi" })
}

async fn lookup_id() -> i64 {
    7
}

agent_test! {
    agent = probe_agent();

    scenario probe {
        user "hello" {
            expect tool("x").
            expect reply().
        }
        expect tool_sequence(["a"]).
        expect node("AI Agent").tool(tool("search").).
        expect field("data.status").
        expect judge("is polite").
        simulate simulated_user("get a refund"). {
            expect reply().contains("refund");
        }
    }

    // The body is an async block inside a closure: the types of Rust code between steps are
    // still known (complete code, cursor in the middle).
    scenario types_in_the_body {
        let greeting = String::from("again");
        let turn = user greeting.clone() {
            let shout = greeting.to_uppercase();
        }
        let calls = turn.reply.calls.len();
        let n: u32 = extract "a number";
        let doubled = n.checked_mul(2);
        let id = lookup_id().await;
        let positive = id.is_positive();
    }
}
"""

# (the text just before the cursor, on the first line holding it; methods that must be offered)
CURSORS = [
    ('tool("x").', ["arg", "strict", "times", "at_position", "every_call", "id", "depends_on", "warning"]),
    ("reply().\n", ["contains", "not_contains", "starts_with", "equals", "matches", "not_matches"]),
    ('tool_sequence(["a"]).', ["succeeded", "id", "depends_on"]),
    ('tool("search").', ["arg", "at_position", "never"]),
    ('field("data.status").', ["is", "is_not", "exists", "missing"]),
    ('judge("is polite").', ["threshold", "hallucination", "must_not", "on_transcript", "on_node", "warning"]),
    ('simulated_user("get a refund").', ["persona", "turns", "continue_after_pass"]),
    ("greeting.to_", ["to_uppercase", "to_lowercase"]),
    ("turn.reply.", ["text", "calls", "usage", "http_status"]),
    ("n.", ["checked_mul", "pow", "leading_zeros"]),
    ("id.", ["is_positive", "abs", "signum"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ra", default="/opt/ra/bin/rust-analyzer")
    args = ap.parse_args()
    original = MAIN.read_text()
    PROBE.write_text(SOURCE)
    MAIN.write_text(original + "mod ide_probe;\n")
    ok = True
    try:
        for before, expected in CURSORS:
            # `\n` in `before` marks the end of the line.
            at_end = before.endswith("\n")
            before = before.rstrip("\n")
            line, text = next((n, t) for n, t in enumerate(SOURCE.splitlines(), 1)
                              if (t.endswith(before) if at_end else f" {before}" in t
                                  or f"({before}" in t))
            col = text.index(before) + len(before) + 1
            print(f"--- line {line}: {text.strip()!r} (cursor at column {col})")
            r = subprocess.run([sys.executable, str(TOOL), "--ra", args.ra, "--timeout", "300",
                                str(ROOT), str(PROBE), str(line), str(col), *expected],
                               capture_output=True, text=True)
            labels = r.stdout.split()
            print("offered:", ", ".join(labels[:24]), "..." if len(labels) > 24 else "")
            if r.returncode != 0:
                print(r.stderr.strip())
                ok = False
    finally:
        MAIN.write_text(original)
        PROBE.unlink(missing_ok=True)
    print("all expected completions offered" if ok else "MISSING completions")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
