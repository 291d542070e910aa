"""What the back-office plugs into the provider clients' transport, and their settings.

The clients (`<app>/client.py`) know nothing of Django; their `providerkit.transport.Transport`
times every call and tells its observers. The services layer hands each client the observers
of `provider_observers(service)`, which count the call in the metrics and record whether the
provider answered, for the dashboard.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import DatabaseError
from django.utils import timezone

from backoffice.models import ProviderContact
from backoffice.operations import metrics
from providerkit.observing import CallObserver, ProviderCall

logger = logging.getLogger(__name__)


def record_contact(service: str, ok: bool, detail: str = "") -> None:
    """Store the outcome of a call; never lets a bookkeeping failure break the call itself."""
    now = timezone.now()
    values: dict[str, object] = {"ok": ok, "at": now, "detail": detail[:300]}
    if ok:
        values["last_ok_at"] = now
    try:
        ProviderContact.objects.update_or_create(service=service, defaults=values)
    except DatabaseError:
        logger.exception("could not record provider contact for %s", service)


# A resumable upload makes one call per MiB: writing the contact row for each would cost more
# than the call. An observer writes the same outcome at most this often, a new outcome at once.
RECORD_INTERVAL_S = 1.0


class ProviderCallRecorder:
    """The back-office's `providerkit.observing.CallObserver`: counts every call in the
    metrics and records, per service, whether the provider answered.

    A 5xx answer counts as "not answered properly"; a 4xx is an answer (our request was wrong,
    the provider is up). One recorder per client: its throttle is its own.
    """

    def __init__(self, service: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self._clock = clock
        self._last_recorded: tuple[bool, str, float] | None = None

    def __repr__(self) -> str:
        return f"ProviderCallRecorder({self.service!r})"

    def observe(self, call: ProviderCall) -> None:
        endpoint = metrics.endpoint_of(self.service, call.method, call.path, call.headers)
        metrics.observe_provider_call(self.service, endpoint, call.status, call.seconds)
        if call.status is None:
            error = call.error
            self._record(False, f"{type(error).__name__}: {error}" if error else "no answer")
            return
        ok = call.status < 500
        self._record(ok, "" if ok else f"HTTP {call.status}")

    def _record(self, ok: bool, detail: str) -> None:
        now = self._clock()
        last = self._last_recorded
        if last is not None and last[:2] == (ok, detail) and now - last[2] < RECORD_INTERVAL_S:
            return
        pending: list[Contact] | None = getattr(_deferral, "pending", None)
        if pending is not None:
            pending.append((self.service, ok, detail))
        else:
            record_contact(self.service, ok, detail)
        self._last_recorded = (ok, detail, now)


Contact = tuple[str, bool, str]  # service, whether it answered, the detail
_deferral = threading.local()


@contextmanager
def contact_deferred() -> Iterator[list[Contact]]:
    """Inside it, the calling thread's recorders note whether the provider answered in the
    list it yields instead of writing it: a pool thread making calls for a campaign run keeps
    off the database (a connection of its own per thread, which would also wait on the run's
    uncommitted rows); the run writes them itself with `record_contacts`."""
    pending: list[Contact] = []
    _deferral.pending = pending
    try:
        yield pending
    finally:
        _deferral.pending = None


def record_contacts(contacts: list[Contact]) -> None:
    for service, ok, detail in contacts:
        record_contact(service, ok, detail)


def provider_observers(
    service: str, *, clock: Callable[[], float] = time.monotonic
) -> tuple[CallObserver, ...]:
    """What a client of `service` reports its calls to (the `observers` of its Transport)."""
    return (ProviderCallRecorder(service, clock=clock),)


class ProviderNotConfigured(RuntimeError):
    """A provider address or credential is missing from the environment."""


def provider_settings(service: str) -> dict[str, str]:
    """The service's provider settings, refusing clearly when one is missing."""
    from django.conf import settings

    values: dict[str, str] = settings.PROVIDER[service]
    missing = [name for name, value in values.items() if not value]
    if missing:
        raise ProviderNotConfigured(
            f"{service}: set {', '.join(missing)} in the environment (see the README)")
    return values
