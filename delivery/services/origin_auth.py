"""The Access page's "try it": the request the edge would send to a domain's auth URL before
serving one client request (`delivery.access_rules.auth_request_headers`, the back-office's
own builder), sent now from the back-office, and what came back.

Reading only: it changes nothing anywhere, so it is not audited; it sends a request to an
address staff typed, so the page allows it only to those who may change the delivery
settings (docs/decisions.md, "Origin authentication"), and never to a link-local, multicast
or unspecified address (a cloud's metadata service lives at 169.254.169.254): those are no
merchant's endpoint. Loopback and private networks stay allowed, as a merchant's auth
service may sit on its own network. The name is resolved once for the check; DNS that
changes between the check and the request is not guarded against.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests

from delivery.access_rules import auth_request_headers

BODY_SHOWN = 2000  # characters of the answer's body shown on the page
USER_AGENT = "svc-backoffice-auth-try/1"


@dataclass(frozen=True)
class AuthTry:
    """What the auth URL did: `outcome` is "answered" (then `status` and `body`), "timeout"
    or "unreachable" (then `error`). `allowed`: the edge would serve the request."""

    outcome: str
    seconds: float
    sent_headers: dict[str, str]
    status: int | None = None
    body: str = ""
    error: str = ""

    @property
    def allowed(self) -> bool:
        return self.status == 200


def try_auth_url(url: str, timeout: int, *, uri: str, client_ip: str, host: str) -> AuthTry:
    """GET `url` as the edge would for a client at `client_ip` asking `host` for `uri`."""
    headers = auth_request_headers(uri, "GET", host, client_ip, {"User-Agent": USER_AGENT,
                                                                 "Host": host})
    started = time.monotonic()
    refused = _forbidden_address(url)
    if refused:
        return AuthTry("forbidden", 0.0, headers, error=refused)
    try:
        answer = requests.get(url, headers=headers, timeout=timeout, allow_redirects=False,
                              stream=True)
        raw = answer.raw.read(BODY_SHOWN * 4, decode_content=True) or b""
        answer.close()
    except requests.Timeout:
        return AuthTry("timeout", time.monotonic() - started, headers)
    except requests.RequestException as error:
        return AuthTry("unreachable", time.monotonic() - started, headers,
                       error=str(error)[:500])
    body = raw.decode(answer.encoding or "utf-8", errors="replace")[:BODY_SHOWN]
    return AuthTry("answered", time.monotonic() - started, headers,
                   status=answer.status_code, body=body)


def _forbidden_address(url: str) -> str:
    """The address of `url` the back-office will not call ("" when none; a name that does not
    resolve is left to the request, which says so)."""
    parts = urlsplit(url)
    try:
        found = socket.getaddrinfo(parts.hostname or "", parts.port or 80, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):
        return ""
    for *_rest, address in found:
        ip = ipaddress.ip_address(address[0])
        if ip.is_link_local or ip.is_multicast or ip.is_unspecified:
            return str(ip)
    return ""
