"""The content-delivery protocol: `_upt` tokens, cache purge, and publishing the edge config.

Pure protocol code (stdlib, requests and providerkit, no Django): the services layer hands in
settings and the observers of every call (`providerkit.observing`). The rule that keeps both
sides in agreement, as for storage, is "sign what you send": `_upt` is computed over the path
exactly as it is written in the request line (percent-encoded), and the purge signature over
exactly the text of the `purge` form field.

- `upt_token` / `signature_uri`: DECISIONS "Content delivery" and content-delivery.md
  "Token protection".
- `PurgeClient`: DECISIONS "Storage and media processing", purge.
- `EdgeFetcher`: GETs from the edge as a visitor would (a `*.localhost` domain through
  127.0.0.1). The edge's configuration is published through the console API
  (`delivery.services.console_target`), not here.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from email.utils import formatdate
from urllib.parse import urlsplit, urlunsplit

import requests

from providerkit.failures import NoAnswer, UnusableAnswer
from providerkit.json_types import JSONObject
from providerkit.observing import CallObserver
from providerkit.timeouts import Timeout
from providerkit.transport import Transport, json_answer

SCHEME_WORD = "SVC"
PURGE_PATH = "/purge/"
DEFAULT_TIMEOUT: Timeout = 15.0
# `_upp` outside this range means "sign the full URI" (content-delivery.md).
MAX_UPP = 20
# The 8 characters of the digest that go into `_upt`: positions 12 to 19, 0-based.
TOKEN_SLICE = slice(12, 20)


def md5_hex(text: str) -> str:
    """Lower-case hex MD5 of `text`, UTF-8 encoded."""
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def http_date(timestamp: float) -> str:
    """RFC 1123 date in GMT, for the `Date` header."""
    return formatdate(timestamp, usegmt=True)


# --- token protection ------------------------------------------------------------------------


def directory_count(uri: str) -> int:
    """How many directory levels `uri` has: `/a/b/c/foo.jpg` has 3, `/foo.jpg` has 0."""
    return len(uri.split("/")) - 2 if uri.startswith("/") else 0


def signature_uri(uri: str, upp: int | None = None) -> str:
    """The URI that goes into the `_upt` digest.

    With `_upp=N` (0 to 20) it is cut to its first N directory levels, with a leading and a
    trailing `/` (0 gives `/`); without `_upp`, outside 0-20, or deeper than the path, it is the
    full URI (content-delivery.md, "Directory level").
    """
    if upp is None or not 0 <= upp <= MAX_UPP or upp > directory_count(uri):
        return uri
    directories = uri.split("/")[1:-1][:upp]
    return "/" + "".join(f"{name}/" for name in directories)


def upt_token(secret: str, uri: str, etime: int, upp: int | None = None) -> str:
    """`_upt` for `uri` (path without query, as sent) valid until `etime` (UNIX seconds).

    md5hex(`<secret>&<etime>&<URI>`), characters 12 to 19, followed by `etime` unchanged.
    """
    if not secret:
        raise ValueError("the token secret is empty")
    if not uri.startswith("/"):
        raise ValueError(f"the URI must start with '/', got {uri!r}")
    if "?" in uri or "#" in uri:
        raise ValueError(f"the URI must not contain a query or fragment, got {uri!r}")
    if etime < 0:
        raise ValueError(f"etime must be a UNIX time in seconds, got {etime}")
    digest = md5_hex(f"{secret}&{etime}&{signature_uri(uri, upp)}")
    return f"{digest[TOKEN_SLICE]}{etime}"


# --- errors ----------------------------------------------------------------------------------


class DeliveryError(Exception):
    """A delivery or purge call failed; `status` and `body` hold the answer when there was one."""

    def __init__(self, message: str, *, status: int | None = None, body: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.body = body


class DeliveryConnectionError(DeliveryError):
    """No answer (connection refused, reset, timeout): the call may or may not have landed."""


class PurgeRateLimited(DeliveryError):
    """406 (api/purge.md): more than 600 URLs in a minute; the same URLs may be sent again once
    the minute has room. A 429, which a proxy in front may answer, means the same."""


class PurgeAuthError(DeliveryError):
    """401/403: the purge signature, bucket, operator or date was refused.

    `reason` names which, when the answer carries one of api/purge.md's hint texts
    (`PURGE_AUTH_REASONS`); None for any other wording.
    """

    def __init__(self, message: str, *, status: int | None = None, body: str = "",
                 reason: str | None = None) -> None:
        super().__init__(message, status=status, body=body)
        self.reason = reason


# api/purge.md's 401 hint texts ("提示信息"), lowercased, and the reason each stands for.
PURGE_AUTH_REASONS: Mapping[str, str] = {
    "need authorization header": "need_authorization",
    "need date header": "need_date",
    "user is not exists": "user_not_exists",
    "bucket is not exists": "bucket_not_exists",
    "date offset error": "date_offset",
    "sign error": "sign_error",
}


class PurgeRefused(DeliveryError):
    """Any other answer than 200 (bad request, server error, unreadable body)."""


# --- purge -----------------------------------------------------------------------------------


def purge_authorization(
    urls_text: str, bucket: str, operator: str, password: str, date: str
) -> str:
    """`SVC <bucket>:<operator>:<md5hex(URLS&BUCKET&DATE&md5hex(password))>`.

    `urls_text` is the `purge` form field exactly as sent: the URLs joined by `\\n`.
    """
    digest = md5_hex("&".join([urls_text, bucket, date, md5_hex(password)]))
    return f"{SCHEME_WORD} {bucket}:{operator}:{digest}"


@dataclass(frozen=True)
class PurgeResult:
    """A 200 answer: the URLs whose domain the provider does not serve for this account."""

    invalid_domain_urls: tuple[str, ...]
    raw: JSONObject = field(default_factory=dict)


class PurgeClient:
    """`POST {purge_url}/purge/`, signed with the storage operator's password.

    A purge is not retried here: a repeat is harmless to the cache but counts against the
    600-a-minute limit, so the caller (which keeps the request on record) decides.
    """

    def __init__(
        self,
        purge_url: str,
        bucket: str,
        operator: str,
        password: str,
        *,
        session: requests.Session | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        clock: Callable[[], float] = time.time,
        observers: Sequence[CallObserver] = (),
    ) -> None:
        if not purge_url.startswith(("http://", "https://")):
            raise ValueError(f"purge_url must be an http(s) URL, got {purge_url!r}")
        if not bucket or not operator or not password:
            raise ValueError("purge needs the storage bucket, operator and password")
        self.purge_url = purge_url.rstrip("/")
        self.bucket = bucket
        self.operator = operator
        self._password = password
        self.timeout = timeout
        self._transport = Transport(
            "delivery", self.purge_url, session=session, timeout=timeout, observers=observers
        )
        self._clock = clock

    def __repr__(self) -> str:  # never show the password
        return f"PurgeClient({self.purge_url!r}, bucket={self.bucket!r})"

    def purge(self, urls: Sequence[str]) -> PurgeResult:
        if not urls:
            raise ValueError("purge needs at least one URL")
        for url in urls:
            if "\n" in url or "\r" in url:
                raise ValueError(f"a URL must not contain a line break: {url!r}")
        urls_text = "\n".join(urls)
        date = http_date(self._clock())
        headers = {
            "Date": date,
            "Authorization": purge_authorization(
                urls_text, self.bucket, self.operator, self._password, date
            ),
        }
        try:
            response = self._transport.request(
                "POST", PURGE_PATH, data={"purge": urls_text}, headers=headers
            )
        except NoAnswer as failure:
            raise DeliveryConnectionError(f"purge: no answer: {failure.__cause__}") from (
                failure.__cause__
            )
        return _purge_result(response)


def purge_auth_reason(body: str) -> str | None:
    """The reason of a 401 from its hint text: the `msg` (or `message`) of a JSON answer, or
    the whole answer when it is plain text; compared without case or surrounding space."""
    text = body
    try:
        payload = json.loads(body)
    except ValueError:
        payload = None
    if isinstance(payload, dict):
        found = payload.get("msg", payload.get("message"))
        text = found if isinstance(found, str) else ""
    return PURGE_AUTH_REASONS.get(text.strip().lower())


def _purge_result(response: requests.Response) -> PurgeResult:
    status = response.status_code
    body = response.text[:2000]
    if status in (406, 429):
        raise PurgeRateLimited(f"purge: more than 600 URLs a minute ({status})", status=status,
                               body=body)
    if status in (401, 403):
        raise PurgeAuthError(f"purge: refused ({status}): {body}", status=status, body=body,
                             reason=purge_auth_reason(body))
    if status != 200:
        raise PurgeRefused(f"purge: HTTP {status}: {body}", status=status, body=body)
    try:
        payload = json_answer(response, "purge")
    except UnusableAnswer:
        raise PurgeRefused("purge: the answer is not JSON", status=status, body=body) from None
    invalid = payload.get("invalid_domain_of_url") if isinstance(payload, dict) else None
    listed = invalid if isinstance(invalid, list) else []
    urls = tuple(url for url in listed if isinstance(url, str))
    if not isinstance(payload, dict) or not isinstance(invalid, list) or len(urls) != len(listed):
        raise PurgeRefused(
            "purge: the answer has no invalid_domain_of_url list", status=status, body=body
        )
    return PurgeResult(urls, payload)


# --- fetching from the edge ------------------------------------------------------------------


@dataclass(frozen=True)
class EdgeAnswer:
    """What the edge answered to a GET, redirects not followed. `too_large` is set (and `body`
    cut) when the body was longer than the caller's limit."""

    status: int
    body: bytes
    content_type: str
    cache: str
    too_large: bool


def localhost_route(url: str, headers: Mapping[str, str]) -> tuple[str, dict[str, str]]:
    """Where to send a GET of `url`, and with which headers.

    A `*.localhost` host is the machine itself (RFC 6761), which browsers know and glibc's
    resolver does not: such a request goes to 127.0.0.1 with the domain as `Host`, so that
    the sandbox edge picks the domain (docs/decisions.md, "Domains at the sandbox edge").
    Any other URL is sent as it is.
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if not host.endswith(".localhost"):
        return url, dict(headers)
    port = f":{parts.port}" if parts.port else ""
    routed = urlunsplit(parts._replace(netloc=f"127.0.0.1{port}"))
    return routed, {**headers, "Host": f"{host}{port}"}


class EdgeFetcher:
    """GETs URLs from the edge as a visitor would, for the back-office's own previews."""

    def __init__(
        self,
        session: requests.Session | None = None,
        *,
        timeout: Timeout = 10.0,
        observers: Sequence[CallObserver] = (),
    ) -> None:
        self.timeout = timeout
        # No base URL: the fetcher is given whole URLs, as a visitor's browser would be.
        self._transport = Transport(
            "delivery", session=session, timeout=timeout, observers=observers
        )

    def get(
        self, url: str, *, max_bytes: int, headers: Mapping[str, str] | None = None
    ) -> EdgeAnswer:
        """Read at most `max_bytes` (+1, to tell a longer body); DeliveryConnectionError when
        the edge does not answer."""
        url, sent = localhost_route(url, headers or {})
        try:
            with self._transport.request(
                "GET", url, headers=sent, stream=True, allow_redirects=False
            ) as answer:
                body = answer.raw.read(max_bytes + 1, decode_content=True)
                return EdgeAnswer(
                    status=answer.status_code,
                    body=body[:max_bytes],
                    content_type=answer.headers.get("Content-Type", "application/octet-stream"),
                    cache=answer.headers.get("X-Cache", ""),
                    too_large=len(body) > max_bytes,
                )
        except NoAnswer as failure:
            raise DeliveryConnectionError(f"edge: no answer: {failure.__cause__}") from (
                failure.__cause__
            )
        except requests.RequestException as error:
            # The body broke off while it was being read.
            raise DeliveryConnectionError(f"edge: no answer: {error}") from error
