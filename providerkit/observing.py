"""The provider-call hook: what the back-office plugs in to see every call (metrics, contact).

The kit times each request and tells every observer how it ended; the observers live on the
Django side, so the kit stays free of Django and of the project.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ProviderCall:
    """One HTTP request to the provider and how it ended.

    `service` is the client's service name (sms, topup, storage, media, delivery); `path` the
    URL's path without the query; `headers` the request's headers (case-insensitive lookup);
    `status` the HTTP status, None when no answer arrived, and then `error` is the `requests`
    exception; `seconds` runs from sending until the answer's headers arrived (or the failure).
    """

    service: str
    method: str
    path: str
    headers: Mapping[str, str]
    status: int | None
    seconds: float
    error: BaseException | None = None


class CallObserver(Protocol):
    """Something told of every provider call a `providerkit.transport.Transport` makes."""

    def observe(self, call: ProviderCall) -> None:
        """Called once per request, after it ended, in the calling thread.

        Contract: it must be quick (it runs inside every call, including each part of an
        upload) and must not raise; if it does, the exception is logged and ignored, because
        bookkeeping must never break the call it watches. It must not read the answer's body.
        """
        ...


def notify(observers: Iterable[CallObserver], call: ProviderCall) -> None:
    """Tell each observer of `call`, keeping the call alive whatever an observer does."""
    for observer in observers:
        try:
            observer.observe(call)
        except Exception:
            logger.exception("provider-call observer %r failed", observer)
