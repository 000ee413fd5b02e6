"""A small AG-UI agent server for the gateway's end-to-end tests, answering with event streams
made by the official Python SDK's EventEncoder.

Listens on 127.0.0.1 (an ephemeral port, printed as the first line of standard output), exits
after --lifetime seconds or when its standard input closes. Paths:

  POST /run      RUN_STARTED, a text message in N pieces, a RAW event, a state snapshot,
                 RUN_FINISHED (one event per chunk, a short pause between chunks)
  POST /slow     RUN_STARTED, then a pause of ?pause= seconds, then the rest of /run
  POST /long     one TEXT_MESSAGE_CONTENT every 50 ms for up to 20 s (a client that goes away
                 is noticed when a write fails and counted as `aborted`)
  POST /die      two events and half of a third, then the connection is dropped
  GET  /hello    a plain text answer
  GET  /_stats   JSON: connections opened, requests, aborted streams, and per request its path,
                 body (as latin-1 text), Last-Event-ID and the exact SSE text sent
"""

import json
import socketserver
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

from ag_ui.core import (
    EventType,
    RawEvent,
    RunFinishedEvent,
    RunStartedEvent,
    StateSnapshotEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
)
from ag_ui.encoder import EventEncoder

LOCK = threading.Lock()
STATS = {"connections": 0, "requests": 0, "aborted": 0, "log": []}


def run_events(thread_id, run_id, pieces):
    yield RunStartedEvent(type=EventType.RUN_STARTED, thread_id=thread_id, run_id=run_id)
    yield TextMessageStartEvent(type=EventType.TEXT_MESSAGE_START, message_id="m1", role="assistant")
    for i in range(pieces):
        yield TextMessageContentEvent(
            type=EventType.TEXT_MESSAGE_CONTENT, message_id="m1", delta=f"piece {i} \u00e9\u2603 "
        )
    yield TextMessageEndEvent(type=EventType.TEXT_MESSAGE_END, message_id="m1")
    yield RawEvent(type=EventType.RAW, event={"secret": "provider internals"}, source="llm")
    yield StateSnapshotEvent(type=EventType.STATE_SNAPSHOT, snapshot={"step": 3, "done": True})
    yield RunFinishedEvent(type=EventType.RUN_FINISHED, thread_id=thread_id, run_id=run_id)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        with LOCK:
            STATS["connections"] += 1

    def log_message(self, *args):
        pass

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_GET(self):
        if self.path == "/_stats":
            with LOCK:
                body = json.dumps(STATS).encode()
        else:
            with LOCK:
                STATS["requests"] += 1
                STATS["log"].append({"path": self.path, "body": "", "lastEventId": None, "sent": ""})
            body = b"hello from upstream"
        self.send_response(200)
        self.send_header("Content-Type", "application/json" if self.path == "/_stats" else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        entry = {
            "path": self.path,
            "body": body.decode("latin-1"),
            "lastEventId": self.headers.get("Last-Event-ID"),
            "sent": "",
        }
        with LOCK:
            STATS["requests"] += 1
            STATS["log"].append(entry)
        try:
            doc = json.loads(body)
            thread_id, run_id = doc["threadId"], doc["runId"]
        except Exception:
            thread_id, run_id = "t", "r"
        path, _, query = self.path.partition("?")
        params = dict(p.split("=", 1) for p in query.split("&") if "=" in p)
        encoder = EventEncoder()
        self.send_response(200)
        self.send_header("Content-Type", encoder.get_content_type())
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()

        def send(event):
            text = encoder.encode(event)
            entry["sent"] += text
            self.chunk(text.encode())

        try:
            if path == "/long":
                send(RunStartedEvent(type=EventType.RUN_STARTED, thread_id=thread_id, run_id=run_id))
                send(TextMessageStartEvent(type=EventType.TEXT_MESSAGE_START, message_id="m1", role="assistant"))
                deadline = time.time() + 20
                while time.time() < deadline:
                    time.sleep(0.05)
                    send(TextMessageContentEvent(type=EventType.TEXT_MESSAGE_CONTENT, message_id="m1", delta="x"))
                self.chunk(b"")  # never reached in the tests: the client goes first
                return
            if path == "/die":
                events = list(run_events(thread_id, run_id, 3))
                send(events[0])
                send(events[1])
                half = encoder.encode(events[2]).encode()
                self.chunk(half[: len(half) // 2])
                self.wfile.flush()
                self.connection.shutdown(2)
                self.close_connection = True
                return
            pieces = int(params.get("pieces", "5"))
            # `resume`: an upstream that resumes a run itself, sending only the events after
            # the index of the Last-Event-ID cursor (no RUN_STARTED).
            after = -1
            last_id = self.headers.get("Last-Event-ID") or ""
            if "resume" in query.split("&") and ":" in last_id:
                after = int(last_id.rsplit(":", 1)[1])
            for i, event in enumerate(run_events(thread_id, run_id, pieces)):
                if i <= after:
                    continue
                if path == "/slow" and i == 1:
                    time.sleep(float(params.get("pause", "2.5")))
                send(event)
                time.sleep(0.005)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            with LOCK:
                STATS["aborted"] += 1
            self.close_connection = True


class Server(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True


def main():
    lifetime = 120.0
    if "--lifetime" in sys.argv:
        lifetime = float(sys.argv[sys.argv.index("--lifetime") + 1])
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    stop = threading.Event()

    def stdin_watch():
        sys.stdin.read()
        stop.set()

    threading.Thread(target=stdin_watch, daemon=True).start()
    stop.wait(lifetime)
    server.shutdown()
    server.server_close()


if __name__ == "__main__":
    main()
