#!/usr/bin/env python3
"""`agent-test run` concurrency (issue 12): N scenarios against an HTTP agent that takes L ms
to answer, with --jobs C. The budget is 1.3 x N*L/C.

usage: python3 benches/cli/run_jobs.py [N] [LATENCY_MS] [JOBS...]

Starts a threaded HTTP agent on 127.0.0.1 (each request sleeps LATENCY_MS, then answers with a
reply and a tool call), writes N one-turn scenarios with two checks each, builds the release
binary and times `agent-test run --jobs C` for each C (default: 1 and 8), cold processes.
Prints the wall time, the ideal N*L/C, their ratio and the largest number of requests the
agent saw at once.
"""
import json, os, pathlib, subprocess, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARGS = sys.argv[1:]
N = int(ARGS[0]) if ARGS else 200
LATENCY = (int(ARGS[1]) if len(ARGS) > 1 else 50) / 1000
JOBS = [int(a) for a in ARGS[2:]] or [1, 8]
WORK = ROOT / "target" / "run-jobs"
BIN = ROOT / "target" / "release" / "agent-test"

in_flight = 0
most = 0
lock = threading.Lock()


class Agent(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the client's pool reuses connections
    disable_nagle_algorithm = True  # else headers and body wait 40 ms for a delayed ACK

    def do_POST(self):
        global in_flight, most
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        time.sleep(LATENCY)
        with lock:
            in_flight -= 1
        text = json.loads(body).get("input", "")
        reply = json.dumps({"reply": f"Refund issued for {text}.",
                            "tool_calls": [{"name": "process_refund", "arguments": {"order": text}}]})
        data = reply.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def main():
    global most
    subprocess.run(["cargo", "build", "--release", "--locked", "-p", "agent-test-cli"], cwd=ROOT,
                   check=True, stderr=subprocess.DEVNULL)
    WORK.mkdir(parents=True, exist_ok=True)
    scenarios = [{"name": f"case-{i:04}", "steps": [{"step": "user", "text": f"ORD-{i:04}", "expect": [
        {"check": {"type": "text", "source": "reply", "op": "contains", "value": "refund issued"}},
        {"check": {"type": "tool", "name": "process_refund"}}]}]} for i in range(N)]
    (WORK / "scenarios.json").write_text(json.dumps(scenarios))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Agent)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/chat"
    print(f"run: {N} scenarios against an agent of {LATENCY * 1000:.0f} ms, {os.cpu_count()} CPUs")
    for jobs in JOBS:
        most = 0
        start = time.monotonic()
        out = subprocess.run([str(BIN), "run", "--scenarios", str(WORK / "scenarios.json"),
                              "--http", url, "--calls-at", "tool_calls", "--jobs", str(jobs),
                              "--quiet"],
                             capture_output=True, text=True)
        wall = time.monotonic() - start
        if out.returncode != 0:
            sys.exit(f"agent-test run failed ({out.returncode}):\n{out.stdout[-2000:]}{out.stderr}")
        ideal = N * LATENCY / jobs
        print(f"  --jobs {jobs:3}: {wall:.2f} s  ideal N*L/C {ideal:.2f} s  ratio {wall / ideal:.2f}"
              f"  (budget 1.30; at most {most} requests at once)")
    server.shutdown()


if __name__ == "__main__":
    main()
