"""A merchant's own origin for the tests: a real threaded HTTP server on 127.0.0.1 with an
ephemeral port, serving the pages a test gives it and counting every request it receives.

    origin = OriginServer.start()
    origin.page("/a.css", b"body{}", content_type="text/css")
    origin.address            # "http://127.0.0.1:<port>", an origin address for the console
    origin.hits("/a.css")     # how many requests reached it for that path (query ignored)
    origin.requests           # every request: method, target, headers, body
    origin.stop()

A path it was not given answers 404; `origin.fail_with(500)` makes every answer a 500 (an
origin that is up but broken). The `origin_servers` fixture (tests/sandbox/conftest.py) starts
as many as a test asks for and stops them after it.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import requests

# Never an origin: a port nothing listens on, refused at once (the brief's "down" address).
DOWN_ADDRESS = "http://127.0.0.1:1"


@dataclass(frozen=True)
class Page:
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Received:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes

    @property
    def path(self) -> str:
        return urlsplit(self.target).path


@dataclass
class _State:
    pages: dict[str, Page] = field(default_factory=dict)
    requests: list[Received] = field(default_factory=list)
    failing_status: int | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def _answer(self) -> None:
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        received = Received(self.command, self.path, dict(self.headers.items()), body)
        with state.lock:
            state.requests.append(received)
            page = state.pages.get(received.path)
            failing = state.failing_status
        if failing is not None:
            page = Page(failing, b"origin broken", (("Content-Type", "text/plain"),))
        elif page is None:
            page = Page(404, b"no such page at the origin", (("Content-Type", "text/plain"),))
        self.send_response(page.status)
        for name, value in page.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(page.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(page.body)

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = _answer  # noqa: N815 - http.server's names

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
        pass  # quiet: the test output is for the tests


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: _State


class OriginServer:
    def __init__(self, server: _Server) -> None:
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)

    @classmethod
    def start(cls) -> OriginServer:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.state = _State()
        origin = cls(server)
        origin._thread.start()
        return origin

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def page(self, path: str, body: bytes, *, status: int = 200,
             content_type: str = "text/plain", **headers: str) -> None:
        """Serve `body` at `path`; keyword headers use `_` for `-` (cache_control=...)."""
        extra = tuple((name.replace("_", "-").title(), value) for name, value in headers.items())
        with self._server.state.lock:
            self._server.state.pages[path] = Page(status, body,
                                                  (("Content-Type", content_type), *extra))

    def fail_with(self, status: int | None) -> None:
        with self._server.state.lock:
            self._server.state.failing_status = status

    @property
    def requests(self) -> list[Received]:
        with self._server.state.lock:
            return list(self._server.state.requests)

    def hits(self, path: str | None = None) -> int:
        return sum(1 for received in self.requests if path is None or received.path == path)


class OwnOriginConsole:
    """Own-origin services through the sandbox: created on the control API (a person in the
    provider's console), then their domains, origins and mirror storage set, and their sites
    refreshed, through the console API with a Bearer token (docs/decisions.md)."""

    def __init__(self, sandbox: Any) -> None:
        self.sandbox = sandbox
        self.url = sandbox.info["console_url"]
        login = sandbox.info["console"]
        response = requests.post(f"{self.url}/oauth/tokens", data={
            "username": login["username"], "password": login["password"],
            "code": secrets.token_hex(12), "name": "tests", "scope": "global"}, timeout=30)
        assert response.status_code == 200, response.text
        self.headers = {"Authorization": f"Bearer {response.json()['access_token']}"}

    def call(self, method: str, path: str, body: Any = None) -> requests.Response:
        return requests.request(method, self.url + path, json=body, headers=self.headers,
                                timeout=30)

    def create(self, name: str, domain: str, origins: list[dict[str, Any]]) -> None:
        response = self.sandbox.control("POST", "/console/services", {
            "name": name, "business_type": "cdn", "domains": [domain], "origins": origins})
        assert response.status_code in (200, 201), response.text

    def set_origins(self, name: str, origins: list[dict[str, Any]]) -> None:
        response = self.call("PUT", "/buckets/origins", {"bucket_name": name,
                                                         "origins": origins})
        assert response.status_code == 200, response.text

    def set_mirror(self, name: str, status: str, storage_bucket: str = "",
                   cache_seconds: int = 7 * 86400) -> None:
        body: dict[str, Any] = {"bucket_name": name, "status": status,
                                "cache_seconds": cache_seconds}
        if storage_bucket:
            body["storage_bucket"] = storage_bucket
        response = self.call("PUT", "/buckets/mirror", body)
        assert response.status_code == 200, response.text

    def refresh_rule(self, pattern: str) -> None:
        response = self.call("POST", "/buckets/purge/batch", {"source_url": pattern, "noif": 1})
        assert response.status_code == 200, response.text

    def preheat(self, url: str) -> None:
        response = requests.post(f"{self.url}/preheat", data={"url": url}, headers=self.headers,
                                 timeout=30)
        assert response.status_code == 200, response.text

    def refresh_site(self, domain: str) -> None:
        response = self.call("POST", "/buckets/purge/site", {"domain": domain})
        assert response.status_code == 200, response.text


def origin(address: str, weight: int = 1, backup: bool = False) -> dict[str, Any]:
    return {"address": address, "weight": weight, "backup": backup}
