#!/usr/bin/env python3
"""`agent-test eval` in the per-case form (issue 12): one scenario per case, as imported seed
suites and most users write them.

usage: python3 benches/cli/eval_per_case.py [N_CASES] [REPEATS] [--jsonl]

Builds the release binary and writes, under target/eval-per-case/N/:

  * scenarios.json — N scenarios, each with its own 5 checks: a case-insensitive *contains*,
    the regex `\\bORD-\\d{6}\\b`, a JSON field equal to a value, a tool called with an
    argument, a tool not called (the checks of promptfoo's and deepeval's comparison);
  * runs/ — N recorded runs (one turn, a ~1 KB reply with a JSON body and two tool calls;
    1 in 50 fails a check);
  * scenarios-no-checks.json — the same scenarios without their checks.

With --jsonl the cases and their recordings are one MorganaBench JSONL file instead (the
outputs carried by each example), the form of a 37 MB MorganaBench suite.

Then times `agent-test eval` REPEATS times (median shown), cold each time (a new process),
with `--jobs` left at the number of cores:

  * the floor: reading, parsing and pairing the same runs with check-less scenarios;
  * the 5-check suite, in each output format (text, json, junit);

and prints wall time, peak memory (the command's own `--stats`, Linux VmHWM), µs per check
above the floor, and the ratio to the floor. Every run's verdict count is verified in the
JSON output (N x 5 checks, the expected number failing).
"""
import json, os, pathlib, re, statistics, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
JSONL = "--jsonl" in sys.argv
N = int(ARGS[0]) if ARGS else 10_000
REPEATS = int(ARGS[1]) if len(ARGS) > 1 else 3
WORK = ROOT / "target" / "eval-per-case" / f"{N}{'-jsonl' if JSONL else ''}"
BIN = ROOT / "target" / "release" / "agent-test"
FAILING_EVERY = 50
CHECKS = 2 if JSONL else 5

FILLER = ("We are sorry for the trouble with your order. The refund goes back to the card you "
          "paid with; banks usually show it within three to five working days. If anything "
          "else is wrong with the order, reply to this message and we will look into it. ")


def order(i):
    return f"ORD-{100000 + i:06}"


def checks(i):
    return [
        {"check": {"type": "text", "source": "reply", "op": "contains", "case_sensitive": False,
                   "value": "Refund Issued"}},
        {"check": {"type": "text", "source": "reply", "op": "matches", "case_sensitive": True,
                   "value": "\\bORD-\\d{6}\\b"}},
        {"check": {"type": "field", "source": "auto", "path": "refund.status",
                   "matcher": {"matcher": "exact", "value": "issued"}}},
        {"check": {"type": "tool", "name": "process_refund", "count": {"at_least": 1},
                   "args": [{"matcher": "exact", "name": "order_id", "value": order(i)}]}},
        {"check": {"type": "tool_set", "mode": "forbidden", "tools": ["cancel_order"]}},
    ]


def scenario(i, with_checks=True):
    s = {"name": f"case-{i:06}", "steps": [{"step": "user", "text": f"Please refund {order(i)}"}]}
    if with_checks:
        s["expect"] = checks(i)
    return s


def reply(i):
    bad = i % FAILING_EVERY == 0
    status = "pending" if bad else "issued"
    text = f"Refund issued for order {order(i)}: RF-{i:06}, 42.50 EUR. " + FILLER * 3
    body = {"reply": text, "refund": {"id": f"RF-{i:06}", "status": status, "amount": 42.5}}
    calls = [
        {"name": "lookup_order", "arguments": {"order_id": order(i)},
         "result": {"order_id": order(i), "status": "delivered", "total": 42.5}},
        {"name": "process_refund", "arguments": {"order_id": order(i), "amount": 42.5},
         "result": {"refund_id": f"RF-{i:06}", "status": status}},
    ]
    return text, body, calls


def recorded_run(i):
    text, body, calls = reply(i)
    return {
        "scenario": {"name": f"case-{i:06}"},
        "transcript": {"turns": [{
            "index": 0, "input": f"Please refund {order(i)}", "latency_ms": 800,
            "reply": {"text": text, "body": body, "calls": calls, "http_status": 200,
                      "usage": {"input_tokens": 300, "output_tokens": 120}},
        }]},
    }


def example(i):
    """A MorganaBench example with its outputs: a few messages of history, two tool calls with
    results, an email and a date-time parameter; ~3.7 KB, as in a 37 MB suite of 10,000."""
    text, body, calls = reply(i)
    bad = i % FAILING_EVERY == 0
    history = [{"role": "user" if k % 2 == 0 else "assistant", "content": FILLER} for k in range(4)]
    trace = []
    for k, c in enumerate(calls):
        trace.append({"event": "tool_call", "id": f"c{k}", "tool": c["name"], "params": c["arguments"]})
        trace.append({"event": "tool_result", "id": f"c{k}", "result": c["result"]})
    trace.append({"event": "tool_call", "id": "c9", "tool": "send_email",
                  "params": {"to": "bob@example.com" if bad else "ana@example.com", "body": FILLER}})
    return {
        "inputs": {"messages": history + [{"role": "user", "content": f"Please refund {order(i)}"}]},
        "expectations": {"assertions": [
            {"assert_that": "tool_called", "tool": "process_refund", "parameters": [
                {"param": "order_id", "matcher": {"match_as": "equality", "value": order(i)}},
                {"param": "amount", "matcher": {"match_as": "equality", "value": 42.5}}]},
            {"assert_that": "tool_called", "tool": "send_email", "parameters": [
                {"param": "to", "matcher": {"match_as": "email", "value": "ana@example.com"}}]},
        ]},
        "outputs": {"response": text, "environment": {"user_time": "2026-11-23T09:30:00Z"},
                    "trace": trace},
    }


def generate():
    marker = WORK / "generated"
    if marker.exists():
        return
    if JSONL:
        subprocess.run(["rm", "-rf", str(WORK)], check=True)
        WORK.mkdir(parents=True)
        with open(WORK / "suite.jsonl", "w") as f:
            for i in range(N):
                f.write(json.dumps(example(i)) + "\n")
        with open(WORK / "suite-no-checks.jsonl", "w") as f:
            for i in range(N):
                e = example(i)
                e["expectations"] = {}
                f.write(json.dumps(e) + "\n")
        marker.touch()
        return
    subprocess.run(["rm", "-rf", str(WORK)], check=True)
    (WORK / "runs").mkdir(parents=True)
    (WORK / "scenarios.json").write_text(json.dumps([scenario(i) for i in range(N)]))
    (WORK / "scenarios-no-checks.json").write_text(
        json.dumps([scenario(i, False) for i in range(N)]))
    for i in range(N):
        (WORK / "runs" / f"run-{i:06}.json").write_text(json.dumps(recorded_run(i)))
    marker.touch()


STATS = re.compile(r"(\d+) runs? in ([\d.]+) s; peak memory (\d+) kB")


def measure(scenarios, fmt, verify):
    times, peaks = [], []
    out_file = WORK / f"out.{fmt}"
    for _ in range(REPEATS):
        runs = [] if JSONL else ["--runs", str(WORK / "runs")]
        cmd = [str(BIN), "eval", "--scenarios", str(WORK / scenarios), *runs,
               "--quiet", "--stats", "--format", fmt, "--output", str(out_file)]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"agent-test eval failed ({out.returncode}):\n{out.stderr}")
        m = STATS.search(out.stderr)
        if not m:
            sys.exit(f"no --stats line in:\n{out.stderr}")
        times.append(float(m.group(2)))
        peaks.append(int(m.group(3)))
    if verify and fmt == "json":
        verify_json(out_file)
    return statistics.median(times), max(peaks)


def verify_json(path):
    """Every case evaluated, 5 verdicts each, exactly the planted failures failing."""
    data = json.loads(path.read_text())
    runs = data["runs"] if isinstance(data, dict) else data
    if len(runs) != N:
        sys.exit(f"{len(runs)} runs in the output, expected {N}")
    failed = 0
    for r in runs:
        verdicts = r["report"]["verdicts"]
        if len(verdicts) != CHECKS:
            sys.exit(f"{r.get('source')}: {len(verdicts)} verdicts")
        failed += sum(v["status"] != "pass" for v in verdicts)
    expected = len(range(0, N, FAILING_EVERY))  # the field check of each planted failure
    if failed != expected:
        sys.exit(f"{failed} failing verdicts, expected {expected}")


def main():
    subprocess.run(["cargo", "build", "--release", "--locked", "-p", "agent-test-cli"], cwd=ROOT,
                   check=True, stderr=subprocess.DEVNULL)
    generate()
    if JSONL:
        size = (WORK / "suite.jsonl").stat().st_size
        suite, bare, what = "suite.jsonl", "suite-no-checks.jsonl", "MorganaBench JSONL examples"
    else:
        size = sum(f.stat().st_size for f in (WORK / "runs").iterdir())
        suite, bare, what = "scenarios.json", "scenarios-no-checks.json", "scenarios + run files"
    floor_t, floor_m = measure(bare, "text", False)
    print(f"per-case: {N} {what} x {CHECKS} checks ({size / 1e6:.1f} MB of runs), "
          f"{os.cpu_count()} CPUs, median of {REPEATS}, cold processes")
    print(f"  floor (read, parse, pair; no checks): {floor_t:.3f} s  peak {floor_m / 1024:.0f} MiB")
    for fmt in ["text", "json", "junit"]:
        t, m = measure(suite, fmt, True)
        per_check = max(t - floor_t, 0) / (N * CHECKS) * 1e6
        print(f"  {CHECKS} checks, --format {fmt:5}: {t:.3f} s  peak {m / 1024:.0f} MiB  "
              f"{t / floor_t:.2f}x the floor  ({per_check:.2f} µs per check above it)")


if __name__ == "__main__":
    main()
