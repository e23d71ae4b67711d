#!/usr/bin/env python3
"""Asks rust-analyzer what an editor would show inside `agent_test!`, and fails on what is missing.

usage: python3 scripts/ide_completion.py [--ra PATH] [--timeout SECONDS] [--only NAME]

One rust-analyzer serves every cursor, as in an editor: a probe file is written into the
integration test crate, and for each case its text is sent as an edit of that file (the case's
`$0` marks the cursor), then rust-analyzer is asked for completions, hover or the definition
there. A case lists what must be offered (and what must not: the expansion's own names), what
the hover must say, or where the definition must be. The probe file is removed at the end.
Exit code 0 when every case holds.

rust-analyzer: --ra, else $RUST_ANALYZER, else `rust-analyzer` on PATH. The version the project
pins is 0.0.340 (`cargo install ra_ap_rust-analyzer --version 0.0.340 --locked`); `.ci/run`
installs it when missing.
"""
import argparse, json, os, pathlib, queue, subprocess, sys, threading, time

ROOT = pathlib.Path(__file__).resolve().parents[1]
PROBE = ROOT / "tests" / "integration" / "ide_probe.rs"
MAIN = ROOT / "tests" / "integration" / "main.rs"

HEADER = """#![allow(unused)]
use agent_test::prelude::*;
use agent_test::agent::{Agent, agent_fn};
use agent_test::{Clock, simulated_user};
use std::time::Duration;

fn probe_agent() -> impl Agent {
    agent_fn(|_req| async move { "hi" })
}

async fn lookup_id() -> i64 {
    7
}

agent_test! {
"""

# The suite of most cases: `{body}` is replaced by the case's scenario body.
SUITE = """    agent = probe_agent();
    timeout = Duration::from_secs(30);

    scenario probe {
{body}
    }
}
"""

INTERNAL = ["__agent_test"]  # what the expansion names for itself: never offered

# (name, kind, text with $0, expectations)
#   complete: (must be offered, must not be offered: labels or prefixes)
#   hover:    substrings the hover text must hold
#   definition: the path suffix the definition must be in
CASES = [
    # Check builders after `.`
    ("tool methods", "complete", 'user "hello" {\n expect tool("x").$0\n expect reply().contains("x");\n}',
     (["arg", "strict", "times", "at_position", "every_call", "id", "depends_on", "warning"], [])),
    ("reply methods", "complete", 'user "hello" {\n expect reply().$0\n}',
     (["contains", "not_contains", "starts_with", "equals", "matches", "not_matches"], [])),
    ("sequence methods", "complete", 'user "hi";\n expect tool_sequence(["a"]).$0\n',
     (["succeeded", "id", "depends_on"], [])),
    ("nested tool methods", "complete", 'user "hi";\n expect node("AI Agent").tool(tool("search").$0);\n',
     (["arg", "at_position", "never"], [])),
    ("field methods", "complete", 'user "hi";\n expect field("data.status").$0\n',
     (["is", "is_not", "exists", "missing"], [])),
    ("judge methods", "complete", 'user "hi";\n expect judge("is polite").$0\n',
     (["threshold", "hallucination", "must_not", "on_transcript", "on_node", "warning"], [])),
    ("simulated user methods", "complete", 'simulate simulated_user("get a refund").$0 {\n expect reply().contains("refund");\n}',
     (["persona", "turns", "continue_after_pass"], [])),
    # Rust between steps keeps its types
    ("a local's methods", "complete", 'let greeting = String::from("again");\n user greeting.clone();\n greeting.to_$0',
     (["to_uppercase", "to_lowercase"], [])),
    ("a bound turn", "complete", 'let turn = user "hi";\n let n = turn.reply.$0',
     (["text", "calls", "usage", "http_status"], [])),
    ("an extracted value", "complete", 'user "hi";\n let n: u32 = extract "a number";\n let d = n.$0',
     (["checked_mul", "pow", "leading_zeros"], [])),
    ("an awaited value", "complete", 'let id = lookup_id().await;\n let p = id.$0',
     (["is_positive", "abs", "signum"], [])),
    # Check constructors after `expect `, without the expansion's own names
    ("check constructors", "complete", 'user "hi";\n expect $0',
     (["tool", "reply", "no_tool", "judge", "tool_sequence"], INTERNAL)),
    # The words at the start of a statement
    ("scenario words, typed before a statement", "complete", 'us$0\n user "hi";',
     (["user", "expect", "system", "history", "context", "extract", "simulate", "timeout"], INTERNAL)),
    ("scenario words, last statement", "complete", 'user "hi";\n exp$0',
     (["expect", "user", "system"], INTERNAL)),
    # Ctrl+Space with nothing typed: a newcomer exploring the grammar sees the words
    ("scenario words, an empty statement", "complete", 'user "hi";\n $0\n expect no_tools();',
     (["user", "expect", "system", "history", "extract", "simulate"], INTERNAL)),
    ("scenario words, an empty first statement", "complete", '$0\n user "hi";',
     (["user", "expect", "system", "history", "extract", "simulate"], INTERNAL)),
    ("scenario words, an empty last statement", "complete", 'user "hi";\n $0',
     (["user", "expect", "system", "history", "extract", "simulate"], INTERNAL)),
    ("scenario words, an empty body", "complete", '$0',
     (["user", "expect", "system", "history", "extract", "simulate"], INTERNAL)),
    ("turn words, an empty statement", "complete", 'user "hi" {\n $0\n}',
     (["expect"], ["user", "system"] + INTERNAL)),
    ("turn words", "complete", 'user "hi" {\n exp$0\n expect no_tools();\n}',
     (["expect"], ["user", "system"] + INTERNAL)),
    # The words at the top of the macro
    ("suite words", "complete_file", HEADER + "    agent = probe_agent();\n    ti$0\n    scenario s { user \"hi\"; }\n}\n",
     (["timeout", "judge", "scenario", "context", "files", "tools", "report_dir"], INTERNAL)),
    ("suite words before a scenario", "complete_file", HEADER + "    agent = probe_agent();\n    sc$0\n}\n",
     (["scenario", "timeout"], INTERNAL)),
    # A misspelt scenario keeps completion in its body
    ("misspelt scenario body", "complete_file",
     HEADER + "    agent = probe_agent();\n    scenaro s {\n        user \"hi\" {\n            expect tool(\"x\").$0\n        }\n    }\n}\n",
     (["arg", "strict"], [])),
    # A setting's value is Rust too
    ("a setting's value", "complete_file", HEADER + "    agent = probe_agent();\n    timeout = Duration::from_$0\n    scenario s { user \"hi\"; }\n}\n",
     (["from_secs", "from_millis"], [])),
    ("a scenario setting's value", "complete", 'clock = Clock::$0\n user "hi";', (["fixed"], [])),
    # Hover and go-to-definition on the words
    ("hover user", "hover", 'us$0er "hi";', ["user turn"]),
    ("hover expect", "hover", 'user "hi";\n exp$0ect reply().contains("x");', ["check"]),
    ("hover extract", "hover", 'user "hi";\n let n: u32 = extr$0act "a number";', ["extracts"]),
    ("hover scenario setting", "hover", 'time$0out = Duration::from_secs(5);\n user "hi";', ["how long one turn may take"]),
    ("hover scenario keyword", "hover_file", HEADER + "    agent = probe_agent();\n    scen$0ario s { user \"hi\"; }\n}\n", ["one test named"]),
    ("hover suite setting", "hover_file", HEADER + "    age$0nt = probe_agent();\n    scenario s { user \"hi\"; }\n}\n", ["the agent under test"]),
    ("hover a check function", "hover", 'user "hi";\n expect to$0ol("x");', ["pub fn tool"]),
    ("definition of user", "definition", 'us$0er "hi";', "src/dsl.rs"),
    ("definition of expect", "definition", 'user "hi";\n exp$0ect no_tools();', "src/dsl.rs"),
    ("definition of scenario", "definition_file", HEADER + "    agent = probe_agent();\n    scena$0rio s { user \"hi\"; }\n}\n", "src/dsl.rs"),
]


def case_text(kind, text):
    """The probe file of a case: its own text (kinds ending in `_file`), or its scenario body
    in the common suite."""
    if kind.endswith("_file"):
        return text
    body = "\n".join("        " + line.strip() for line in text.split("\n"))
    return HEADER + SUITE.replace("{body}", body)


def position(text):
    i = text.index("$0")
    before = text[:i]
    line = before.count("\n")
    col = len(before) - (before.rfind("\n") + 1)
    return text.replace("$0", "", 1), line, col


class Lsp:
    def __init__(self, ra):
        self.proc = subprocess.Popen([ra], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=ROOT)
        self.inbox = queue.Queue()
        self.next_id = 0
        self.quiescent = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        f = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = f.readline()
                if not line:
                    return
                line = line.decode().strip()
                if not line:
                    break
                k, v = line.split(":", 1)
                headers[k.lower()] = v.strip()
            self.inbox.put(json.loads(f.read(int(headers["content-length"]))))

    def _write(self, msg):
        data = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout):
        self.next_id += 1
        rid = self.next_id
        self._write({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = self._next(deadline)
            if m is not None and m.get("id") == rid and "method" not in m:
                return m.get("result")
        return None

    def _next(self, deadline):
        try:
            m = self.inbox.get(timeout=max(0.1, min(1, deadline - time.time())))
        except queue.Empty:
            return None
        if m.get("method") == "experimental/serverStatus":
            self.quiescent = bool(m.get("params", {}).get("quiescent"))
        elif "method" in m and "id" in m:  # a request of the server: answer with null
            self._write({"jsonrpc": "2.0", "id": m["id"], "result": None})
        return m

    def wait_quiescent(self, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline and not self.quiescent:
            self._next(deadline)
        return self.quiescent

    def close(self):
        try:
            self.request("shutdown", None, 5)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def labels_of(result):
    items = result.get("items", []) if isinstance(result, dict) else (result or [])
    return [it.get("label", "") for it in items]


def offered(labels, want):
    return any(l == want or l.startswith(want + "(") or l.startswith(want + "!") for l in labels)


def hover_text(result):
    if not result:
        return ""
    c = result.get("contents")
    if isinstance(c, dict):
        return c.get("value", "")
    if isinstance(c, list):
        return "\n".join(x.get("value", "") if isinstance(x, dict) else str(x) for x in c)
    return str(c or "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ra", default=os.environ.get("RUST_ANALYZER", "rust-analyzer"))
    ap.add_argument("--timeout", type=float, default=900, help="seconds for loading the workspace")
    ap.add_argument("--only", help="run only the cases whose name contains this")
    args = ap.parse_args()
    cases = [c for c in CASES if not args.only or args.only in c[0]]

    original = MAIN.read_text()
    first_text, _, _ = position(case_text(cases[0][1], cases[0][2]))
    PROBE.write_text(first_text)
    MAIN.write_text(original + "mod ide_probe;\n")
    uri = PROBE.resolve().as_uri()
    lsp = Lsp(args.ra)
    failures = []
    started = time.time()
    try:
        lsp.request("initialize", {
            "processId": os.getpid(), "rootUri": ROOT.as_uri(),
            "capabilities": {
                "textDocument": {"completion": {"completionItem": {"snippetSupport": False}},
                                 "hover": {"contentFormat": ["markdown", "plaintext"]}},
                "window": {"workDoneProgress": True},
                "experimental": {"serverStatusNotification": True},
            },
            "initializationOptions": {"cargo": {"buildScripts": {"enable": True}},
                                      "procMacro": {"enable": True},
                                      "checkOnSave": False, "cachePriming": {"enable": False}},
        }, 120)
        lsp.notify("initialized", {})
        lsp.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "rust", "version": 1, "text": first_text}})
        if not lsp.wait_quiescent(args.timeout):
            print(f"rust-analyzer did not finish loading within {args.timeout:.0f} s")
        print(f"workspace loaded in {time.time() - started:.0f} s")
        version = 1
        for name, kind, text, expected in cases:
            source, line, col = position(case_text(kind, text))
            version += 1
            lsp.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": source}]})
            pos = {"textDocument": {"uri": uri}, "position": {"line": line, "character": col}}
            # The first answers after an edit can come before the proc macro re-expanded: retry.
            deadline = time.time() + (120 if version == 2 else 30)
            ok, shown = False, ""
            while not ok and time.time() < deadline:
                if kind.startswith("complete"):
                    must, must_not = expected
                    labels = labels_of(lsp.request("textDocument/completion", pos, 60))
                    missing = [w for w in must if not offered(labels, w)]
                    unwanted = [l for l in labels if any(l == u or l.startswith(u) for u in must_not)]
                    ok = bool(labels) and not missing and not unwanted
                    shown = (f"{len(labels)} offered; missing: {missing}; unwanted: {unwanted}"
                             if not ok else f"{len(labels)} offered")
                elif kind.startswith("hover"):
                    h = hover_text(lsp.request("textDocument/hover", pos, 60))
                    ok = bool(h) and all(s in h for s in expected)
                    shown = " ".join(h.split())[:100] or "no hover"
                else:
                    r = lsp.request("textDocument/definition", pos, 60) or []
                    r = r if isinstance(r, list) else [r]
                    targets = [t.get("uri") or t.get("targetUri", "") for t in r]
                    ok = any(t.endswith(expected) for t in targets)
                    shown = ", ".join(t.rsplit("/", 2)[-2] + "/" + t.rsplit("/", 1)[-1] for t in targets) or "no definition"
                if not ok:
                    time.sleep(1)
            print(f"{'ok  ' if ok else 'FAIL'} {kind.split('_')[0]:<10} {name}: {shown}")
            if not ok:
                failures.append(name)
    finally:
        lsp.close()
        MAIN.write_text(original)
        PROBE.unlink(missing_ok=True)
    print(f"{len(cases) - len(failures)} passed, {len(failures)} failed "
          f"({len(cases)} cursors, one rust-analyzer, {time.time() - started:.0f} s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
