"""The kit's failures: what went wrong on a provider call, before any client names it.

Every client keeps its own public error classes (services and pages catch those); it catches
these at its one transport step and re-raises its own, so the mapping lives in one place per
client and the kit never needs to know a client's classes.
"""

from __future__ import annotations

from collections.abc import Callable


class ProviderFailure(Exception):
    """A provider call gave no usable result. `detail` says why (for developers and logs),
    `status` is the HTTP status when an answer arrived, else None."""

    def __init__(self, detail: str, status: int | None = None) -> None:
        super().__init__(detail if status is None else f"{detail} (HTTP {status})")
        self.detail = detail
        self.status = status

    def __reduce__(self) -> tuple[Callable[..., ProviderFailure], tuple[object, ...]]:
        # Celery pickles exceptions: keep the constructor's arguments, not the formatted text.
        return (type(self), (self.detail, self.status))


class NoAnswer(ProviderFailure):
    """No answer arrived: connection refused or reset, timeout, broken TLS... The provider may
    or may not have acted. The `requests` exception is the `__cause__`.

    `connection_failed` is True for a connection failure or a timeout (the cases a client may
    repeat); other `requests` errors (an invalid URL, a body that could not be sent) are not.
    """

    def __init__(
        self, detail: str, status: int | None = None, *, timed_out: bool = False,
        connection_failed: bool = False,
    ) -> None:
        super().__init__(detail, status)
        self.timed_out = timed_out
        self.connection_failed = connection_failed or timed_out

    def __reduce__(self) -> tuple[Callable[..., ProviderFailure], tuple[object, ...]]:
        return (_no_answer, (self.detail, self.status, self.timed_out, self.connection_failed))


def _no_answer(
    detail: str, status: int | None, timed_out: bool, connection_failed: bool
) -> NoAnswer:
    """Rebuilds a NoAnswer from its pickled state (its flags are keyword-only)."""
    return NoAnswer(detail, status, timed_out=timed_out, connection_failed=connection_failed)


class UnusableAnswer(ProviderFailure):
    """An answer arrived but is not the protocol's: not JSON, an unexpected status."""


class ShapeError(UnusableAnswer):
    """An answer is JSON but not of the promised shape: a field missing or of the wrong type.

    Raised by `providerkit.json_readers`; `detail` names the field and where it was read.
    """
