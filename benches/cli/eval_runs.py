#!/usr/bin/env python3
"""`agent-test eval` at scale (issue 4): N recorded runs (default 10,000) x 5 checks.

usage: python3 benches/cli/eval_runs.py [N_RUNS] [REPEATS]

Builds the release binary, writes N realistic recorded runs (3 turns, tool calls with
arguments and results, a JSON body, usage; about 2.5 KB each, 1 in 50 failing) under
target/eval-bench/, then times, REPEATS times each (median shown):

  * `eval` with the same scenario stripped of its checks — reading, parsing and pairing only,
  * `eval` with the 5-check scenario, in each output format (text, json, junit),

and prints wall time, peak memory (the command's own `--stats`, Linux VmHWM) and the share of
the time the checks and the output take, for each output format.
"""
import json, os, pathlib, re, statistics, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
WORK = ROOT / "target" / "eval-bench"
BIN = ROOT / "target" / "release" / "agent-test"

# The five checks, in the JSON form of docs/format/scenario.json.
SCENARIO = {
    "name": "refund",
    "steps": [
        {"step": "user", "text": "I was charged twice for my last order",
         "expect": [{"check": {"type": "no_tools"}}]},
        {"step": "user", "text": "Order number is ORD-9921",
         "expect": [{"check": {"type": "tool", "name": "lookup_order", "args": [
             {"matcher": "regex", "name": "order_id", "pattern": "^ORD-\\d+$"}]}}]},
        {"step": "user", "text": "Yes, please process the refund"},
    ],
    "expect": [
        {"check": {"type": "tool", "name": "process_refund", "args": [
            {"matcher": "exact", "name": "amount", "value": 42.5}]}},
        {"check": {"type": "tool_sequence", "tools": ["lookup_order", "process_refund"]}},
        {"check": {"type": "text", "source": "reply", "op": "matches", "case_sensitive": True, "value": "refund RF-\\d+"}},
    ],
}


def run_record(i):
    amount = 4.25 if i % 50 == 0 else 42.5
    order = f"ORD-{9000 + i % 1000}"

    def turn(index, text, reply, calls, ms):
        return {"index": index, "input": text, "latency_ms": ms,
                "reply": {"text": reply, "calls": calls, "http_status": 200,
                          "usage": {"input_tokens": 120 + index * 80, "output_tokens": 20}}}

    return {
        "scenario": {"name": "refund"},
        "transcript": {
            "context": {"CUSTOMER_EMAIL": f"customer{i}@example.com"},
            "user_time": "2026-11-23T09:30:00+00:00[UTC]",
            "turns": [
                turn(0, "I was charged twice for my last order",
                     "Sorry about that! What is your order number?", [], 640),
                turn(1, f"Order number is {order}",
                     f"Order {order} was charged twice (€42.50). Shall I refund it?",
                     [{"name": "lookup_order", "arguments": {"order_id": order},
                       "result": {"order_id": order, "status": "delivered", "total": 42.5,
                                  "items": [{"sku": "SKU-1", "qty": 1, "price": 42.5}],
                                  "charged_twice": True}}], 910),
                turn(2, "Yes, please process the refund",
                     f"Done: refund RF-{5000 + i} of €{amount:.2f} is on its way.",
                     [{"name": "process_refund",
                       "arguments": {"order_id": order, "amount": amount, "reason": "duplicate_charge"},
                       "result": {"refund_id": f"RF-{5000 + i}", "status": "issued"}}], 1020),
            ],
        },
    }


def generate():
    runs = WORK / "runs"
    marker = WORK / f"generated-{N}"
    if marker.exists():
        return
    subprocess.run(["rm", "-rf", str(WORK)], check=True)
    runs.mkdir(parents=True)
    for i in range(N):
        (runs / f"run-{i:05}.json").write_text(json.dumps(run_record(i), indent=1, ensure_ascii=False))
    (WORK / "scenario.json").write_text(json.dumps(SCENARIO, indent=1))
    bare = dict(SCENARIO, expect=[], steps=[{k: v for k, v in s.items() if k != "expect"} for s in SCENARIO["steps"]])
    (WORK / "scenario-no-checks.json").write_text(json.dumps(bare, indent=1))
    marker.touch()


STATS = re.compile(r"(\d+) runs? in ([\d.]+) s; peak memory (\d+) kB")


def measure(scenario, fmt):
    times, peaks = [], []
    for _ in range(REPEATS):
        out = subprocess.run([str(BIN), "eval", "--scenarios", str(WORK / scenario),
                              "--runs", str(WORK / "runs"), "--quiet", "--stats",
                              "--format", fmt, "--output", os.devnull],
                             capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"agent-test eval failed ({out.returncode}):\n{out.stderr}")
        m = STATS.search(out.stderr)
        if not m:
            sys.exit(f"no --stats line in:\n{out.stderr}")
        times.append(float(m.group(2)))
        peaks.append(int(m.group(3)))
    return statistics.median(times), max(peaks)


def main():
    subprocess.run(["cargo", "build", "--release", "--locked", "-p", "agent-test-cli"], cwd=ROOT, check=True)
    generate()
    size = sum(f.stat().st_size for f in (WORK / "runs").iterdir())
    bare_t, bare_m = measure("scenario-no-checks.json", "text")
    print(f"{N} recorded runs, {size / 1e6:.1f} MB of JSON, {os.cpu_count()} CPUs, median of {REPEATS}")
    print(f"  no checks (read, parse, pair): {bare_t:.3f} s  ({N / bare_t:,.0f} runs/s)  peak {bare_m / 1024:.1f} MiB")
    for fmt in ["text", "json", "junit"]:
        t, m = measure("scenario.json", fmt)
        share = max(t - bare_t, 0) / t
        print(f"  5 checks, --format {fmt:5}:     {t:.3f} s  ({N / t:,.0f} runs/s)  peak {m / 1024:.1f} MiB"
              f"  (checks and output: {share:.0%} of the time)")

if __name__ == "__main__":
    main()
