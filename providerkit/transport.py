"""The one place a provider client sends a request: timeout, observers, failure mapping.

A `Transport` wraps a `requests.Session` with the service's base URL, its timeout and the
observers the back-office plugged in (`providerkit.observing`). It returns every answer, error
statuses included (each protocol reads its own error bodies), and turns a `requests`
exception into `NoAnswer`; `json_answer` turns a body that is not JSON into `UnusableAnswer`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Protocol
from urllib.parse import urlsplit

import requests
from requests.structures import CaseInsensitiveDict

from providerkit.failures import NoAnswer, UnusableAnswer
from providerkit.json_readers import as_object
from providerkit.json_types import JSONObject, JSONValue
from providerkit.observing import CallObserver, ProviderCall, notify
from providerkit.timeouts import DEFAULT_TIMEOUT, Timeout, check_timeout

Params = Mapping[str, str | int] | Sequence[tuple[str, str]]


class SizedBody(Protocol):
    """A streamed request body: `requests` reads its length, then iterates it."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[bytes]: ...


Body = bytes | str | Mapping[str, object] | IO[bytes] | SizedBody


class Transport:
    """Sends one service's requests: `path` is appended to `base_url` (an absolute URL when
    `base_url` is ""), with the transport's timeout; every observer sees each request.

    `clock` times the calls (monotonic seconds), injectable for tests.
    """

    def __init__(
        self,
        service: str,
        base_url: str = "",
        *,
        session: requests.Session | None = None,
        timeout: Timeout = DEFAULT_TIMEOUT,
        observers: Sequence[CallObserver] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.base_url = base_url.rstrip("/")
        self.session = session if session is not None else requests.Session()
        self.timeout = check_timeout(timeout)
        self.observers = tuple(observers)
        self._clock = clock

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        headers: Mapping[str, str] | None = None,
        json: JSONValue | None = None,
        data: Body | None = None,
        stream: bool = False,
        allow_redirects: bool = True,
    ) -> requests.Response:
        """The provider's answer, whatever its status; `NoAnswer` when none arrived (its
        `__cause__` is the `requests` exception). The caller closes a streamed answer."""
        url = self.base_url + path
        sent_headers: CaseInsensitiveDict[str] = CaseInsensitiveDict(headers or {})
        started = self._clock()
        try:
            response = self.session.request(
                method, url, params=params, headers=sent_headers, json=json, data=data,
                timeout=self.timeout, stream=stream, allow_redirects=allow_redirects,
            )
        except requests.RequestException as error:
            self._observe(method, url, sent_headers, None, started, error)
            raise NoAnswer(
                f"{method} {path}: {type(error).__name__}: {error}",
                timed_out=isinstance(error, requests.Timeout),
                connection_failed=isinstance(error, requests.ConnectionError),
            ) from error
        self._observe(method, url, sent_headers, response.status_code, started, None)
        return response

    def _observe(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        status: int | None,
        started: float,
        error: BaseException | None,
    ) -> None:
        if not self.observers:
            return
        call = ProviderCall(
            service=self.service, method=method, path=urlsplit(url).path, headers=headers,
            status=status, seconds=self._clock() - started, error=error,
        )
        notify(self.observers, call)


def json_answer(
    response: requests.Response, where: str, *, parse_float: Callable[[str], object] = float
) -> JSONValue:
    """The answer's body parsed as JSON; `UnusableAnswer` (with the status) when it is not.

    `parse_float` lets a protocol read amounts exactly (decimal.Decimal).
    """
    try:
        value: JSONValue = json.loads(response.content, parse_float=parse_float)
    except ValueError:
        raise UnusableAnswer(f"{where}: the answer is not JSON", response.status_code) from None
    return value


def json_object_answer(response: requests.Response, where: str) -> JSONObject:
    """The answer's body as a JSON object; `UnusableAnswer` or `ShapeError` otherwise."""
    return as_object(json_answer(response, where), where)
