"""A black-box agent for `agent-test run --repeat`: an HTTP service in Python that answers
`POST /chat` (`{"input": text}` -> `{"reply": text}`) and forgets the refund on every fourth
request, counted across the whole process — a flaky agent with a known pass rate of 3/4.

Prints `listening on http://127.0.0.1:PORT` once it serves; stops when its standard input
closes (the test's handle on it)."""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
COUNT = [0]


class Chat(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        with LOCK:
            COUNT[0] += 1
            n = COUNT[0]
        text = body.get("input", "")
        reply = "Done." if n % 4 == 0 else f"Your refund for {text} is on its way."
        data = json.dumps({"reply": reply}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Chat)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
sys.stdin.read()
server.shutdown()
