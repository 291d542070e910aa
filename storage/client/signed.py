"""Signed requests to `/<bucket>/...`: the transport every storage call goes through.

Every request is signed (`storage.signing`) and sent through `providerkit.transport`. Two kinds
of repeat are built in, both bounded:

- a 40100002 "date offset" answer means our clock disagrees with the provider's; the client
  learns the offset from the answer's `Date` header and repeats the call once;
- 429 and 5xx answers (and network failures) of idempotent calls (GET, HEAD, DELETE and the PUT
  of a whole file) are repeated with exponential backoff. POST and PATCH are never repeated
  blindly: the caller queries first.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import requests
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential
from urllib3.exceptions import NewConnectionError

from providerkit.failures import NoAnswer
from providerkit.observing import CallObserver
from providerkit.timeouts import check_timeout
from providerkit.transport import Transport
from storage import rules
from storage.client.bodies import Body, FileBody
from storage.client.errno import error_from_response
from storage.client.errors import (
    RETRYABLE_ERRORS,
    AuthenticationError,
    DateOffset,
    StorageConnectionError,
    StorageError,
)
from storage.signing import (
    DATE_HEADERS,
    SCHEMES,
    DateHeader,
    Scheme,
    encode_uri,
    http_date,
    sign_request,
)

logger = logging.getLogger("storage.client")

# A whole-file transfer may wait long between socket reads; the timeout bounds each wait.
DEFAULT_TIMEOUT = 30.0
# The provider accepts a Date within 30 minutes of its clock; beyond half of that, an uncoded
# 401 (a HEAD answer has no body) is taken for a date-offset refusal.
CLOCK_TOLERANCE_S = 15 * 60


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff for idempotent calls: `attempts` in all, waits `initial_wait`, then doubled,
    capped at `max_wait` seconds. `sleep` is injectable so tests do not wait."""

    attempts: int = 4
    initial_wait: float = 0.5
    max_wait: float = 8.0
    sleep: Callable[[float], None] = time.sleep



class SignedClient:
    """The signing, sending and repeating half of `StorageClient` (see `storage.client.rest`).

    A session that trusts the environment is given its proxy and CA-bundle settings once, at
    construction, and then stops reading it (see `_settle_environment`). `date_header` names
    the header that carries the signed date: `Date` (default) or `X-Date`. `observers` see every
    request (`providerkit.observing`).
    """

    def __init__(
        self,
        base_url: str,
        bucket: str,
        operator: str,
        password: str,
        scheme: Scheme = "current",
        timeout: float = DEFAULT_TIMEOUT,
        session: requests.Session | None = None,
        *,
        retry: RetryPolicy | None = None,
        clock: Callable[[], float] = time.time,
        date_header: DateHeader = "Date",
        observers: Sequence[CallObserver] = (),
        fallback_url: str = "",
        on_fallback: Callable[[str, str], None] | None = None,
    ) -> None:
        self.base_url = _check_base_url(base_url)
        # The smart-routing entry address, tried once when a carrier's line cannot be reached
        # (storage-and-media.md's entry addresses); `on_fallback(line URL, fallback URL)` lets
        # the back-office log and count it.
        self.fallback_url = _check_base_url(fallback_url) if fallback_url else ""
        self._on_fallback = on_fallback
        self._observers = tuple(observers)
        if not bucket or "/" in bucket:
            raise ValueError(f"bucket must be a non-empty name without '/', got {bucket!r}")
        if not operator or ":" in operator:
            raise ValueError("operator must be a non-empty name without ':'")
        if scheme not in SCHEMES:
            raise ValueError(f"scheme must be one of {', '.join(SCHEMES)}, got {scheme!r}")
        if date_header not in DATE_HEADERS:
            raise ValueError(
                f"date_header must be one of {', '.join(DATE_HEADERS)}, got {date_header!r}"
            )
        self.bucket = bucket
        self.operator = operator
        self._password = password
        self.scheme: Scheme = scheme
        self.date_header: DateHeader = date_header
        self.timeout = check_timeout(timeout)
        self.session = session or requests.Session()
        _settle_environment(self.session, self.base_url)
        self._transport = Transport(
            "storage", self.base_url, session=self.session, timeout=timeout, observers=observers
        )
        self.retry = retry or RetryPolicy()
        self._clock = clock
        # Seconds to add to our clock to match the provider's; learnt from 40100002 answers.
        self.clock_offset = 0.0

    def send(
        self,
        method: str,
        path: str,
        *,
        query: Sequence[tuple[str, str | None]] = (),
        headers: Mapping[str, str] | None = None,
        body: Body | None = None,
        content_md5: str | None = None,
        idempotent: bool,
        stream: bool = False,
        allow_root: bool = False,
    ) -> requests.Response:
        """One signed request to `/<bucket><path>`; returns a 2xx answer or raises.

        The building block of every call, public for protocol extensions (resumable upload).
        `idempotent` allows backoff retries on 429/5xx/network failures; a date-offset answer
        is corrected and repeated once whatever the method, since the provider refused it
        before doing anything.
        """
        uri = encode_uri(
            f"/{self.bucket}{rules.normalise_path(path, allow_root=allow_root)}", query
        )
        request = _Request(method, uri, dict(headers or {}), body, content_md5, idempotent, stream)
        try:
            return self._send_with_backoff(request)
        except DateOffset as error:
            if not self._learn_clock(error):
                raise
            logger.info("storage clock offset corrected to %.0f s", self.clock_offset)
            return self._send_with_backoff(request)
        except AuthenticationError as error:
            # A HEAD answer has no body, so a date-offset refusal arrives without its code;
            # the answer's own Date then shows whether our clock is outside the window.
            if error.code is not None or not self._clock_is_off(error):
                raise
            if not self._learn_clock(error):
                raise
            logger.info("storage clock offset corrected to %.0f s (uncoded 401)", self.clock_offset)
            return self._send_with_backoff(request)

    def _send_with_backoff(self, request: _Request) -> requests.Response:
        if not request.idempotent:
            return self._attempt(request)
        retrying = Retrying(
            stop=stop_after_attempt(self.retry.attempts),
            wait=wait_exponential(multiplier=self.retry.initial_wait, max=self.retry.max_wait),
            retry=retry_if_exception_type(RETRYABLE_ERRORS),
            sleep=self.retry.sleep,
            reraise=True,
        )
        return retrying(self._attempt, request)

    def _attempt(self, request: _Request) -> requests.Response:
        body = request.body
        if isinstance(body, FileBody):
            body.rewind()
        length = len(body) if body is not None else 0
        date = http_date(self._clock() + self.clock_offset)
        headers = dict(request.headers)
        headers[self.date_header] = date
        if request.content_md5 is not None:
            headers["Content-MD5"] = request.content_md5
        if request.method in ("PUT", "POST", "PATCH"):
            headers["Content-Length"] = str(length)
        headers["Authorization"] = sign_request(
            scheme=self.scheme,
            operator=self.operator,
            password=self._password,
            method=request.method,
            uri=request.uri,
            date=date,
            content_length=length,
            content_md5=request.content_md5,
        )
        try:
            try:
                response = self._transport.request(
                    request.method, request.uri, headers=headers, data=body,
                    stream=request.stream, allow_redirects=False,
                )
            except NoAnswer as failure:
                if not (self.fallback_url and _could_not_connect(failure)):
                    raise
                self._fall_back()
                if isinstance(body, FileBody):
                    body.rewind()
                response = self._transport.request(
                    request.method, request.uri, headers=headers, data=body,
                    stream=request.stream, allow_redirects=False,
                )
        except NoAnswer as failure:
            # Any `requests` failure here means no usable answer: retried when idempotent.
            cause = failure.__cause__
            raise StorageConnectionError(f"{request.method} {request.uri} failed: {cause}") from (
                cause
            )
        logger.debug("%s %s -> %s", request.method, request.uri, response.status_code)
        if response.status_code >= 400:
            error = error_from_response(response)
            response.close()
            raise error
        return response

    def _fall_back(self) -> None:
        """Send this request and every later one of this client to smart routing: the line
        refused a connection, so nothing of the request reached the provider."""
        line, self.base_url = self.base_url, self.fallback_url
        self.fallback_url = ""
        self._transport = Transport("storage", self.base_url, session=self.session,
                                    timeout=self.timeout, observers=self._observers)
        logger.warning("storage: %s cannot be reached; trying smart routing %s",
                       line, self.base_url)
        if self._on_fallback is not None:
            self._on_fallback(line, self.base_url)

    def _clock_is_off(self, error: StorageError) -> bool:
        """True when the answer's Date is further from our corrected clock than the provider
        tolerates (so an uncoded 401 is most likely a date-offset refusal)."""
        server_time = _server_time(error)
        if server_time is None:
            return False
        return abs(server_time - (self._clock() + self.clock_offset)) > CLOCK_TOLERANCE_S

    def _learn_clock(self, error: AuthenticationError) -> bool:
        """Set `clock_offset` from the refusing answer's `Date`; False when it has none."""
        server_time = _server_time(error)
        if server_time is None:
            return False
        self.clock_offset = server_time - self._clock()
        return True



def _server_time(error: StorageError) -> float | None:
    """The provider's clock from an answer's `Date` header, None when missing or unreadable."""
    server_date = error.headers.get("Date")
    if not server_date:
        return None
    try:
        return parsedate_to_datetime(server_date).timestamp()
    except (TypeError, ValueError):
        return None


def _settle_environment(session: requests.Session, base_url: str) -> None:
    """Read the environment's proxy and CA-bundle settings for `base_url` once, now.

    A session that trusts the environment scans all of it on every request (a measurable cost
    per part of a resumable upload) and looks up ~/.netrc, whose Basic credentials would
    replace our signed Authorization header. Settings the session already has win.
    """
    if not session.trust_env:
        return
    for scheme, proxy in requests.utils.get_environ_proxies(base_url).items():
        session.proxies.setdefault(scheme, proxy)
    if session.verify is True:
        bundle = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE")
        if bundle:
            session.verify = bundle
    session.trust_env = False


@dataclass(frozen=True)
class _Request:
    method: str
    uri: str
    headers: dict[str, str]
    body: Body | None
    content_md5: str | None
    idempotent: bool
    stream: bool


def _could_not_connect(failure: NoAnswer) -> bool:
    """True when the connection itself failed (refused, unreachable, connect timeout): the
    request was never sent, so repeating it elsewhere cannot do anything twice."""
    cause = failure.__cause__
    if isinstance(cause, requests.ConnectTimeout):
        return True
    if not isinstance(cause, requests.ConnectionError):
        return False
    reason = getattr(cause.args[0], "reason", None) if cause.args else None
    return isinstance(reason, NewConnectionError)


def _check_base_url(base_url: str) -> str:
    """`scheme://host[:port]` only: a path prefix would not be part of the signed PATH."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"base_url must be http(s)://host[:port], got {base_url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"base_url must not have a path or query, got {base_url!r}")
    return f"{parts.scheme}://{parts.netloc}"
