"""HTTP sessions for provider clients that record each contact for the dashboard.

The clients (`<app>/client.py`) know nothing of Django; the services layer hands them a session
from `provider_session(service)`, whose adapter records whether the provider answered.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import requests
from django.db import DatabaseError
from django.utils import timezone
from requests import PreparedRequest, Response
from requests.adapters import HTTPAdapter

from backoffice.models import ProviderContact
from backoffice.operations import metrics

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
# than the call. A session writes the same outcome at most this often, a new outcome at once.
RECORD_INTERVAL_S = 1.0


class ContactRecordingAdapter(HTTPAdapter):
    """A transport adapter that records, per service, whether the provider answered.

    A 5xx answer counts as "not answered properly"; a 4xx is an answer (our request was wrong,
    the provider is up).
    """

    def __init__(
        self, service: str, *, clock: Callable[[], float] = time.monotonic, **kwargs: Any
    ) -> None:
        self.service = service
        self._clock = clock
        self._last_recorded: tuple[bool, str, float] | None = None
        super().__init__(**kwargs)

    def send(self, request: PreparedRequest, *args: Any, **kwargs: Any) -> Response:
        endpoint = metrics.endpoint_of(self.service, request.method or "",
                                       request.path_url or "", request.headers)
        started = time.monotonic()
        try:
            response = super().send(request, *args, **kwargs)
        except requests.RequestException as error:
            metrics.observe_provider_call(self.service, endpoint, None,
                                          time.monotonic() - started)
            self._record(False, f"{type(error).__name__}: {error}")
            raise
        metrics.observe_provider_call(self.service, endpoint, response.status_code,
                                      time.monotonic() - started)
        ok = response.status_code < 500
        self._record(ok, "" if ok else f"HTTP {response.status_code}")
        return response

    def _record(self, ok: bool, detail: str) -> None:
        now = self._clock()
        last = self._last_recorded
        if last is not None and last[:2] == (ok, detail) and now - last[2] < RECORD_INTERVAL_S:
            return
        record_contact(self.service, ok, detail)
        self._last_recorded = (ok, detail, now)


def provider_session(
    service: str, *, clock: Callable[[], float] = time.monotonic
) -> requests.Session:
    session = requests.Session()
    adapter = ContactRecordingAdapter(service, clock=clock)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class ProviderNotConfigured(RuntimeError):
    """A provider address or credential is missing from the environment."""


def provider_settings(service: str) -> dict[str, str]:
    """The service's provider settings, refusing clearly when one is missing."""
    from django.conf import settings

    values = settings.PROVIDER[service]
    missing = [name for name, value in values.items() if not value]
    if missing:
        raise ProviderNotConfigured(
            f"{service}: set {', '.join(missing)} in the environment (see the README)")
    return values
