"""The console client's errors: one class a refusal code, and the reading of error answers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import requests

from providerkit.failures import ShapeError, UnusableAnswer
from providerkit.transport import json_answer

# --- errors ---------------------------------------------------------------------------------------


class ConsoleError(Exception):
    """Base of every error this client raises. `status` is the HTTP status (0: no answer)."""

    status: int = 0


class ConsoleConnectionError(ConsoleError):
    """No answer arrived: connection refused or reset, timeout. The console may have acted."""

    def __init__(self, path: str, detail: str, *, timed_out: bool = False) -> None:
        super().__init__(f"{path}: {detail}")
        self.path = path
        self.timed_out = timed_out


class ConsoleProtocolError(ConsoleError):
    """An answer arrived that is not the protocol's: not JSON, a missing or mistyped field."""

    def __init__(self, path: str, detail: str, status: int = 0) -> None:
        super().__init__(f"{path}: {detail}" + (f" (HTTP {status})" if status else ""))
        self.path = path
        self.status = status


class ConsoleRefused(ConsoleError):
    """The console's error answer: `error_code`, `message`, `field` (the bad field, for 10400
    and field-level 409s, else None), `request` (its request id, for support) and `status`."""

    def __init__(self, path: str, status: int, error_code: int, message: str,
                 field: str | None = None, request: str = "") -> None:
        about = f" [{field}]" if field else ""
        super().__init__(f"{path}: {error_code}{about} {message} (HTTP {status})")
        self.path = path
        self.status = status
        self.error_code = error_code
        self.message = message
        self.field = field
        self.request = request


class BadField(ConsoleRefused):
    """10400: a missing or malformed field; `field` names it."""


class TokenRejected(ConsoleRefused):
    """10401: no, unknown or expired Bearer token (after the one retry with a fresh token)."""


class WrongCredentials(ConsoleRefused):
    """10402: `/oauth/tokens` refused the username or password."""


class NotApplicable(ConsoleRefused):
    """10403: the operation does not apply to this service (origins of a storage service...)."""


class NotFound(ConsoleRefused):
    """10404: unknown service or domain."""


class Conflict(ConsoleRefused):
    """10409: the domain is bound to another service, or the service name exists."""


class TooMany(ConsoleRefused):
    """10429: more than 10 refresh patterns, or more than 50 URLs in one request."""


ERRORS: dict[int, type[ConsoleRefused]] = {
    10400: BadField, 10401: TokenRejected, 10402: WrongCredentials, 10403: NotApplicable,
    10404: NotFound, 10409: Conflict, 10429: TooMany,
}


# --- answer reading -------------------------------------------------------------------------------


@contextmanager
def _protocol(path: str) -> Iterator[None]:
    """Inside it, the kit's ShapeError becomes ConsoleProtocolError."""
    try:
        yield
    except ShapeError as failure:
        raise ConsoleProtocolError(path, failure.detail) from None


def _refusal(path: str, response: requests.Response) -> ConsoleError:
    """The typed error of an error answer; one without the error shape is a protocol error."""
    try:
        body = json_answer(response, path)
    except UnusableAnswer:
        return ConsoleProtocolError(path, "error answer is not JSON", response.status_code)
    code = body.get("error_code") if isinstance(body, dict) else None
    if not isinstance(body, dict) or isinstance(code, bool) or not isinstance(code, int):
        return ConsoleProtocolError(path, "error answer without an error_code",
                                    response.status_code)
    message, field, request = body.get("message"), body.get("field"), body.get("request")
    kind = ERRORS.get(code, ConsoleRefused)
    return kind(path, response.status_code, code, message if isinstance(message, str) else "",
                field if isinstance(field, str) and field else None,
                request if isinstance(request, str) else "")
