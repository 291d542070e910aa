"""The Access page's "try it": the request the edge would send to a domain's auth URL before
serving one client request (`delivery.access_rules.auth_request_headers`, the back-office's
own builder), sent now from the back-office, and what came back.

Reading only: it changes nothing anywhere, so it is not audited; it sends a request to an
address staff typed, so the page allows it only to those who may change the delivery
settings (docs/decisions.md, "Origin authentication").
"""

from __future__ import annotations

import time
from dataclasses import dataclass

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
