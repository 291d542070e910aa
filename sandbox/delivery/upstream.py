"""Asking a merchant's origin server for what the edge does not hold: real HTTP/1.1, one
connection per attempt, with a short connect timeout and a read timeout.

Which address answers (cdn/basic.md, "线路配置"): the addresses are tried in the order the
balancer gives (origin.py); an address fails over to the next when it cannot be reached
(refused, unknown host, timeout, a broken or oversized answer) or answers 5xx. The first
answer below 500 is the origin's answer. When every address failed, the last 5xx answer is
passed on when there was one, else the edge answers 502 itself.

What the origin receives:
- the request's method, path and query (after the edge's rewriting) and body;
- `Host: <the domain>`: the provider sends the accelerated domain unless a custom origin
  Host is set (cdn/basic.md, "回源 Host"), and our console has no such setting;
- `X-Forwarded-For`: what the client sent with the address the edge saw appended, as a proxy
  does; `X-Real-IP` and `Client-IP`: the client's address as the edge's access rules see it
  (cdn/advanced.md: the three are sent together);
- the other request headers, except hop-by-hop ones, `Accept-Encoding` (the edge caches one
  plain copy for every client) and conditional or range headers (it caches whole answers).
Redirects are not followed: a 301/302 goes back to the client, as without "redirect
optimisation" (not part of our console).
"""

from __future__ import annotations

import http.client
import socket
import ssl
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from sandbox.delivery.origin import Origin

# RFC 9110 hop-by-hop headers, plus what the edge itself sets or must not pass on.
HOP_BY_HOP = frozenset({
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection",
    "te", "trailer", "transfer-encoding", "upgrade",
})
NOT_FORWARDED = HOP_BY_HOP | frozenset({
    "host", "content-length", "accept-encoding", "range", "if-range", "if-match",
    "if-none-match", "if-modified-since", "if-unmodified-since",
    "x-forwarded-for", "x-real-ip", "client-ip",
})
# The edge frames the body itself; `Date` and `Server` are kept here (freshness.py reads
# `Date`) and left out when the client's answer is built.
NOT_ANSWERED = HOP_BY_HOP | frozenset({"content-length"})
CHUNK = 64 * 1024


@dataclass(frozen=True)
class Limits:
    connect_timeout_s: float
    read_timeout_s: float
    max_bytes: int


@dataclass(frozen=True)
class OriginRequest:
    method: str
    target: str  # path and query, as sent on the request line
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""


@dataclass(frozen=True)
class OriginAnswer:
    address: str
    status: int
    headers: tuple[tuple[str, str], ...]  # as the client gets them (NOT_ANSWERED left out)
    body: bytes

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)

    @property
    def content_type(self) -> str:
        return self.header("Content-Type") or "application/octet-stream"


@dataclass(frozen=True)
class Failure:
    address: str
    reason: str


class OriginUnreachable(Exception):  # noqa: N818 - the origin's state, as the edge reports it
    """Every address failed without an answer to pass on."""

    def __init__(self, failures: Sequence[Failure]) -> None:
        self.failures = tuple(failures)
        super().__init__("; ".join(f"{f.address}: {f.reason}" for f in self.failures))


class _Failed(Exception):
    pass


def forwarded_headers(incoming: Mapping[str, str], *, host: str, client_ip: str,
                      peer: str | None = None) -> tuple[tuple[str, str], ...]:
    """The request headers the origin gets (see the module's docstring); `peer` is the address
    the request came from (default: `client_ip`)."""
    kept = [(name, value) for name, value in incoming.items()
            if name.lower() not in NOT_FORWARDED and value is not None]
    earlier = next((value for name, value in incoming.items()
                    if name.lower() == "x-forwarded-for"), "")
    seen = peer or client_ip
    chain = f"{earlier}, {seen}" if earlier.strip() else seen
    return (("Host", host), *kept, ("X-Forwarded-For", chain), ("X-Real-IP", client_ip),
            ("Client-IP", client_ip), ("Accept-Encoding", "identity"))


def fetch(order: Iterable[Origin], request: OriginRequest, limits: Limits) -> OriginAnswer:
    """The origin's answer from the first address that gives one below 500 (module docstring);
    raises OriginUnreachable when there is nothing to pass on."""
    failures: list[Failure] = []
    last_5xx: OriginAnswer | None = None
    for origin in order:
        try:
            answer = fetch_one(origin.address, request, limits)
        except _Failed as error:
            failures.append(Failure(origin.address, str(error)))
            continue
        if answer.status < 500:
            return answer
        last_5xx = answer
        failures.append(Failure(origin.address, f"answered {answer.status}"))
    if last_5xx is not None:
        return last_5xx
    raise OriginUnreachable(failures or [Failure("-", "the service has no origin address")])


def fetch_one(address: str, request: OriginRequest, limits: Limits) -> OriginAnswer:
    """One attempt at one address; raises _Failed when it gives no usable answer."""
    connection = _connection(address, limits)
    try:
        try:
            connection.connect()
        except (OSError, ssl.SSLError) as error:
            raise _Failed(f"cannot connect ({_describe(error)})") from None
        if connection.sock is not None:  # connected: from now on the read timeout applies
            connection.sock.settimeout(limits.read_timeout_s)
        try:
            connection.putrequest(request.method, request.target, skip_host=True,
                                  skip_accept_encoding=True)
            for name, value in request.headers:
                connection.putheader(name, value)
            if request.body or request.method in ("POST", "PUT", "PATCH"):
                connection.putheader("Content-Length", str(len(request.body)))
            connection.endheaders(request.body or None)
            response = connection.getresponse()
            body = _read_limited(response, limits.max_bytes)
        except (OSError, http.client.HTTPException) as error:
            raise _Failed(f"no answer ({_describe(error)})") from None
        headers = tuple((name, value) for name, value in response.getheaders()
                        if name.lower() not in NOT_ANSWERED)
        return OriginAnswer(address=address, status=response.status, headers=headers,
                            body=body)
    finally:
        connection.close()


def _connection(address: str, limits: Limits) -> http.client.HTTPConnection:
    parts = urlsplit(address)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _Failed(f"not an http(s) address: {address!r}")
    try:
        port = parts.port
    except ValueError:
        raise _Failed(f"bad port in {address!r}") from None
    if parts.scheme == "https":
        return http.client.HTTPSConnection(parts.hostname, port,
                                           timeout=limits.connect_timeout_s)
    return http.client.HTTPConnection(parts.hostname, port, timeout=limits.connect_timeout_s)


def _read_limited(response: http.client.HTTPResponse, max_bytes: int) -> bytes:
    declared = response.getheader("Content-Length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        raise _Failed(f"the answer is {declared} bytes; the sandbox edge takes at most "
                      f"{max_bytes}")
    chunks: list[bytes] = []
    total = 0
    while chunk := response.read(CHUNK):
        total += len(chunk)
        if total > max_bytes:
            raise _Failed(f"the answer exceeds {max_bytes} bytes, the sandbox edge's limit")
        chunks.append(chunk)
    return b"".join(chunks)


def _describe(error: BaseException) -> str:
    if isinstance(error, socket.timeout | TimeoutError):
        return "timed out"
    return str(error) or type(error).__name__
