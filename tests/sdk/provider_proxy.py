"""A forward HTTP proxy that lets the provider's official SDKs talk to the sandbox unmodified.

The SDKs speak the real provider's protocol, which differs from the sandbox's (DECISIONS.md,
first lines) only in the provider's word: `x-upyun-*` header names are `x-svc-*` here and the
Authorization scheme `UPYUN` (`UpYun` for purge) is `SVC`. They also call the provider's host
names. The proxy translates exactly that, both ways: header names, the scheme word and the
host. Paths, queries, bodies, header values and signatures pass through byte for byte (no
signature covers a header name or the scheme word), so whatever the SDK signs is what the
sandbox checks.

An SDK reaches it as an ordinary HTTP forward proxy (absolute-form request lines), through its
own proxy option or the `http_proxy` environment variable. A call that bypasses proxies (the
JavaScript SDK's form upload) is pointed at the proxy as its endpoint (the SDK's `domain`
option) and routed by its `Host` (`add_route`). Every exchange is recorded, with the
translated request headers and the answer's body when it is an error, for the tests to
inspect.

The FORM API carries the scheme word in the body, in the multipart field `authorization`
(api/form_api.md): there too `UPYUN` becomes `SVC`, and nothing else of the body changes (the
signature covers the policy, not the scheme word).
"""

from __future__ import annotations

import http.client
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import urlsplit

PROVIDER_WORD = "upyun"
OUR_WORD = "svc"

_TO_SANDBOX_NAME = re.compile(rf"^x-{PROVIDER_WORD}-", re.IGNORECASE)
_TO_SDK_NAME = re.compile(rf"^x-{OUR_WORD}-", re.IGNORECASE)
_SCHEME_WORD = re.compile(rf"^{PROVIDER_WORD}(?=\s)", re.IGNORECASE)

# Connection-level headers belong to one hop and are never forwarded (RFC 9110, 7.6.1).
HOP_BY_HOP = frozenset({
    "connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate",
    "te", "trailer", "transfer-encoding", "upgrade",
})
UPSTREAM_TIMEOUT_S = 60


@dataclass
class Exchange:
    """One request as forwarded to the sandbox, and its answer."""

    method: str
    host: str
    target: str
    headers: dict[str, str]
    status: int = 0
    error_body: str = ""


@dataclass
class Routes:
    """Provider host name -> sandbox base URL (`http://127.0.0.1:<port>`)."""

    by_host: dict[str, str]
    exchanges: list[Exchange] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, exchange: Exchange) -> None:
        with self.lock:
            self.exchanges.append(exchange)


def to_sandbox_header(name: str, value: str) -> tuple[str, str]:
    name = _TO_SANDBOX_NAME.sub(f"x-{OUR_WORD}-", name)
    if name.lower() == "authorization":
        value = _SCHEME_WORD.sub(OUR_WORD.upper(), value)
    return name, value


# The value of a multipart field named `authorization` starts after the part's blank line.
_FORM_SCHEME_WORD = re.compile(
    rb'(Content-Disposition: form-data; name="authorization"[^\r\n]*\r\n'
    rb"(?:[^\r\n]+\r\n)*\r\n)" + PROVIDER_WORD.encode() + rb"(?=\s)",
    re.IGNORECASE)


def to_sandbox_body(content_type: str, body: bytes) -> bytes:
    """A form upload's `authorization` field with our scheme word; other bodies unchanged."""
    if not content_type.lower().startswith("multipart/form-data"):
        return body
    return _FORM_SCHEME_WORD.sub(lambda found: found[1] + OUR_WORD.upper().encode(), body)


def to_sdk_header_name(name: str) -> str:
    return _TO_SDK_NAME.sub(f"x-{PROVIDER_WORD}-", name)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def do_request(self) -> None:
        self.close_connection = True  # one request per connection keeps the proxy simple
        parts = urlsplit(self.path)
        if self.path.startswith("/"):  # origin form: the proxy is the SDK's endpoint
            parts = urlsplit(f"http://{self.headers.get('Host', '')}{self.path}")
        base = self.server.routes.by_host.get(parts.netloc.lower())
        if parts.scheme != "http" or base is None:
            self.answer(502, f"the proxy has no route for {self.path!r}".encode())
            return
        # The target exactly as the SDK wrote it (already percent-encoded and signed).
        target = parts.path + (f"?{parts.query}" if parts.query else "") or "/"
        upstream = urlsplit(base)
        sent = self.read_body()
        body = to_sandbox_body(self.headers.get("Content-Type", ""), sent)
        headers = self.forwarded_headers(upstream.netloc, body, resized=body != sent)
        exchange = Exchange(self.command, parts.netloc, target, dict(headers))
        connection = http.client.HTTPConnection(upstream.netloc, timeout=UPSTREAM_TIMEOUT_S)
        try:
            connection.putrequest(self.command, target, skip_host=True, skip_accept_encoding=True)
            for name, value in headers:
                connection.putheader(name, value)
            connection.endheaders(body or None)
            response = connection.getresponse()
            answer = response.read()
        finally:
            connection.close()
        exchange.status = response.status
        if response.status >= 400:
            exchange.error_body = answer.decode("utf-8", "replace")
        self.server.routes.record(exchange)
        self.send_response_only(response.status, response.reason)
        for name, value in response.getheaders():
            if name.lower() in HOP_BY_HOP or name.lower() == "content-length":
                continue
            self.send_header(to_sdk_header_name(name), value)
        if self.command == "HEAD":  # no body, but the length of the one a GET would give
            length = response.getheader("Content-Length")
            if length is not None:
                self.send_header("Content-Length", length)
        elif response.status not in (204, 304):
            self.send_header("Content-Length", str(len(answer)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer)

    do_GET = do_HEAD = do_PUT = do_POST = do_PATCH = do_DELETE = do_request

    def read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks: list[bytes] = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def forwarded_headers(self, upstream_host: str, body: bytes,
                          resized: bool = False) -> list[tuple[str, str]]:
        headers = [("Host", upstream_host)]
        for name, value in self.headers.items():
            if name.lower() in HOP_BY_HOP or name.lower() == "host" or \
                    (resized and name.lower() == "content-length"):
                continue
            headers.append(to_sandbox_header(name, value))
        chunked = "chunked" in self.headers.get("Transfer-Encoding", "").lower()
        if chunked or resized:  # the body goes on whole, with its own length
            headers.append(("Content-Length", str(len(body))))
        return headers

    def answer(self, status: int, text: bytes) -> None:
        self.send_response_only(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(text)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(text)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib's name
        pass  # the exchanges are recorded instead


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    routes: Routes


class ProviderProxy:
    """The proxy on a free loopback port, running in a thread: `with ProviderProxy(...) as p`."""

    def __init__(self, by_host: dict[str, str]) -> None:
        self.routes = Routes({host.lower(): base for host, base in by_host.items()})
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.routes = self.routes
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def add_route(self, host: str, base: str) -> None:
        """Route requests for `host` (e.g. the proxy's own address, used as an endpoint)."""
        with self.routes.lock:
            self.routes.by_host[host.lower()] = base

    @property
    def exchanges(self) -> list[Exchange]:
        with self.routes.lock:
            return list(self.routes.exchanges)

    def __enter__(self) -> ProviderProxy:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
