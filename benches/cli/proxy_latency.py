#!/usr/bin/env python3
"""The latency a cassette proxy adds (issue 33, item 9): `agent-test proxy` between a client and
a provider on 127.0.0.1, measured the way clients without quick acknowledgements see it.

usage: python3 benches/cli/proxy_latency.py [REQUESTS]

Builds the release binary, serves a provider on 127.0.0.1 (Python's http.server with Nagle off,
as real providers answer: a chat completion, or a stream of 12 events 5 ms apart), and measures:

- recording: the median time of a plain `http.client` request (one connection per request, as
  `requests` without a session makes them) direct to the provider and through
  `agent-test proxy --mode record`; the difference is what recording adds;
- a streamed replay read from a raw socket, with quick acknowledgements on and off (Linux
  `TCP_QUICKACK`, set before every read): the median time to the whole answer.

Before the proxy's sockets had TCP_NODELAY, recording added ~44 ms per request and the replay
without quick acknowledgements took ~44 ms (0.1 ms with them): Nagle's algorithm held the
answer's last write until the client's delayed acknowledgement.
"""
import http.client, json, os, pathlib, shutil, socket, statistics, subprocess, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = pathlib.Path(__file__).resolve().parents[2]
N = int(sys.argv[1]) if len(sys.argv) > 1 else 100
WORK = ROOT / "target" / "proxy-latency"
BIN = ROOT / "target" / "release" / "agent-test"
GAP = 0.005


class Provider(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        if body.get("stream"):
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("connection", "close")
            self.end_headers()
            for i in range(12):
                chunk = {"choices": [{"index": 0, "delta": {"content": f"{i} "}}]}
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
                time.sleep(GAP)
            self.wfile.write(b"data: [DONE]\n\n")
            self.close_connection = True
            return
        answer = json.dumps({"object": "chat.completion", "choices": [{"index": 0, "message": {
            "role": "assistant", "content": "Your order ships today."}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 9, "completion_tokens": 5}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *_):
        pass


def request(port, body, path="/v1/chat/completions"):
    """One http.client request on a connection of its own; seconds to the whole answer."""
    started = time.perf_counter()
    c = http.client.HTTPConnection("127.0.0.1", port)
    c.request("POST", path, body=json.dumps(body), headers={"content-type": "application/json",
                                                            "authorization": "Bearer sk-bench"})
    r = c.getresponse()
    r.read()
    c.close()
    assert r.status == 200, r.status
    return time.perf_counter() - started


def raw_stream(port, body, quick_ack):
    """A streamed answer read from a raw socket; seconds to its end."""
    payload = json.dumps(body)
    s = socket.create_connection(("127.0.0.1", port))
    started = time.perf_counter()
    s.sendall((f"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: "
               f"application/json\r\ncontent-length: {len(payload)}\r\nconnection: close\r\n\r\n"
               f"{payload}").encode())
    answer = b""
    while True:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1 if quick_ack else 0)
        part = s.recv(65536)
        if not part:
            break
        answer += part
    s.close()
    assert b"[DONE]" in answer, answer[:200]
    return time.perf_counter() - started


def proxy(mode, upstream, directory):
    p = subprocess.Popen([str(BIN), "proxy", "--cassette", str(directory), "--mode", mode,
                          "--upstream", upstream], stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    url = line.split(" at ", 1)[1].split(";", 1)[0].split(" ", 1)[0]
    threading.Thread(target=lambda: p.stderr.read(), daemon=True).start()
    return p, int(url.split(":")[2].split("/")[0])


def ms(xs):
    return f"{statistics.median(xs) * 1000:.2f} ms"


def main():
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "agent-test-cli"], cwd=ROOT,
                   check=True)
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Provider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    upstream = f"http://127.0.0.1:{server.server_port}/v1"
    ask = lambda i: {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": f"q{i}"}]}

    direct = [request(server.server_port, ask(i)) for i in range(N)]
    recorder, port = proxy("record", upstream, WORK / "cassette")
    try:
        through = [request(port, ask(i)) for i in range(N)]
        stream = {"model": "gpt-4o-mini", "stream": True,
                  "messages": [{"role": "user", "content": "count"}]}
        request(port, stream)
    finally:
        recorder.terminate()
        recorder.wait()
    print(f"recording, http.client, {N} requests: direct {ms(direct)}, through the proxy "
          f"{ms(through)}, added {(statistics.median(through) - statistics.median(direct)) * 1000:.2f} ms")

    replayer, port = proxy("replay", upstream, WORK / "cassette")
    try:
        quick = [raw_stream(port, stream, True) for _ in range(N)]
        late = [raw_stream(port, stream, False) for _ in range(N)]
    finally:
        replayer.terminate()
        replayer.wait()
    print(f"streamed replay, raw socket, {N} requests: quick ACKs {ms(quick)}, "
          f"delayed ACKs {ms(late)}")


if __name__ == "__main__":
    main()
