"""Origin authentication: before serving a request the edge asks the merchant's auth URL, and
only a 200 lets the request through (DECISIONS.md: "`GET <auth URL>` with the original URI,
client address and headers in `X-Svc-*` request headers; anything else or a timeout: 403").

The setting `origin_auth` is `{"url": "" | "http(s)://...", "timeout": 1..10 (seconds),
"timeout_refuses": bool}`; an empty URL is off. The request the edge sends (docs/decisions.md,
"Origin authentication", and the README give a curl example):

    GET <auth URL>                      (the URL as configured, its own query kept)
    X-Svc-Uri: <path and query as the client sent them>
    X-Svc-Method: <the client's method>
    X-Svc-Host: <the Host the client asked>
    X-Svc-Client-Ip: <the client's address, as the access checks see it>
    X-Svc-Header-<Name>: <value>        (each request header of the client, hop-by-hop ones
                                         and Host left out; names as the client spelled them)

Redirects are not followed (a 302 is "anything else"). The answer's body is not read beyond
what the connection needs. A refusal is 403 `ORIGIN_AUTH_DENIED` whose message says why: the
status answered, unreachable, or timed out. With `timeout_refuses` off, a timeout serves the
request (the merchant prefers serving to refusing when its auth endpoint is slow); an
unreachable URL or a connection refused still refuses.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import requests

from sandbox.core.jsonapi import FieldError
from sandbox.delivery.errors import ORIGIN_AUTH_DENIED, EdgeError

MIN_TIMEOUT = 1
MAX_TIMEOUT = 10
MAX_URL = 1024
PREFIX = "X-Svc-"
HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
                        "te", "trailer", "transfer-encoding", "upgrade", "host",
                        "content-length"})
_UNSAFE = re.compile(r"[\x00-\x20\x7f]")
OFF: dict[str, Any] = {"url": "", "timeout": 3, "timeout_refuses": True}


def setting(value: Any, field: str = "origin_auth") -> dict[str, Any]:
    """The validated setting; FieldError naming the part that is wrong."""
    if not isinstance(value, dict):
        raise FieldError(field, "must be a JSON object")
    unknown = sorted(set(value) - set(OFF))
    if unknown:
        raise FieldError(f"{field}.{unknown[0]}",
                         f"is not an origin_auth field; known: {', '.join(OFF)}")
    url = value.get("url", "")
    if not isinstance(url, str) or len(url) > MAX_URL or _UNSAFE.search(url):
        raise FieldError(f"{field}.url", f"must be a URL of at most {MAX_URL} characters, "
                                         "without spaces")
    if url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise FieldError(f"{field}.url", "must be an http:// or https:// URL with a host")
    timeout = value.get("timeout", OFF["timeout"])
    if (not isinstance(timeout, int) or isinstance(timeout, bool)
            or not MIN_TIMEOUT <= timeout <= MAX_TIMEOUT):
        raise FieldError(f"{field}.timeout",
                         f"must be a whole number of seconds, {MIN_TIMEOUT} to {MAX_TIMEOUT}")
    refuses = value.get("timeout_refuses", OFF["timeout_refuses"])
    if not isinstance(refuses, bool):
        raise FieldError(f"{field}.timeout_refuses", "must be true or false")
    return {"url": url, "timeout": timeout, "timeout_refuses": refuses}


def request_headers(uri: str, method: str, host: str, client_ip: str,
                    headers: Mapping[str, str]) -> dict[str, str]:
    """The `X-Svc-*` headers of the question about one client request."""
    asked = {f"{PREFIX}Uri": uri, f"{PREFIX}Method": method, f"{PREFIX}Host": host,
             f"{PREFIX}Client-Ip": client_ip}
    for name, value in headers.items():
        if name.lower() not in HOP_BY_HOP:
            asked[f"{PREFIX}Header-{name}"] = value
    return asked


def check(setting_value: dict[str, Any], uri: str, method: str, host: str, client_ip: str,
          headers: Mapping[str, str]) -> None:
    """Ask the auth URL; raises the 403 unless it answers 200 (or times out while a timeout
    serves)."""
    url = setting_value["url"]
    if not url:
        return
    try:
        answer = requests.get(url, headers=request_headers(uri, method, host, client_ip, headers),
                              timeout=setting_value["timeout"], allow_redirects=False,
                              stream=True)
    except requests.Timeout:
        if not setting_value["timeout_refuses"]:
            return
        raise _denied(f"the origin's authentication did not answer within "
                      f"{setting_value['timeout']} s") from None
    except requests.RequestException:
        raise _denied("the origin's authentication could not be reached") from None
    status = answer.status_code
    answer.close()
    if status != 200:
        raise _denied(f"the origin's authentication answered {status}")


def _denied(msg: str) -> EdgeError:
    return EdgeError(403, ORIGIN_AUTH_DENIED, msg)
