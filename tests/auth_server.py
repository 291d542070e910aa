"""A merchant's origin-authentication endpoint for the tests: a real threaded HTTP server on
127.0.0.1 with a free port that answers every GET with the status it is told (200 lets the edge
serve), or sleeps first, and keeps the headers of each request it received.

    with AuthServer.running(status=200) as auth:
        auth.url              # "http://127.0.0.1:<port>/auth"
        auth.status = 403     # the next answers
        auth.delay = 3.0      # seconds slept before answering
        auth.received[-1]     # {header name (lower case): value} of the last request
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# A port nothing listens on: refused at once.
UNREACHABLE_URL = "http://127.0.0.1:1/auth"


class AuthServer:
    def __init__(self, status: int) -> None:
        self.status = status
        self.delay = 0.0
        self.body = b"auth says hello"
        self.received: list[dict[str, str]] = []
        self.targets: list[str] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                owner.received.append({k.lower(): v for k, v in self.headers.items()})
                owner.targets.append(self.path)
                if owner.delay:
                    time.sleep(owner.delay)
                try:
                    self.send_response(owner.status)
                    self.send_header("Content-Type", "text/plain")
                    self.send_header("Content-Length", str(len(owner.body)))
                    self.end_headers()
                    self.wfile.write(owner.body)
                except OSError:  # the edge gave up waiting
                    pass

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/auth"

    @classmethod
    @contextmanager
    def running(cls, status: int = 200) -> Iterator[AuthServer]:
        server = cls(status)
        thread = threading.Thread(target=server._server.serve_forever, daemon=True)
        thread.start()
        try:
            yield server
        finally:
            server._server.shutdown()
            server._server.server_close()
