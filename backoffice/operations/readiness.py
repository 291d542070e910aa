"""What `/ready` checks: the database, the cache and the broker, a worker and the beat alive in
the last minute, and each configured provider's last contact. Each check answers alone, so one
failure never hides another, and the answer names every one that failed."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext

from backoffice.catalogue import SERVICES
from backoffice.models import ProviderContact
from backoffice.operations import heartbeats

HEARTBEAT_MAX_AGE = timedelta(seconds=60)
BROKER_TIMEOUT_S = 2


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str

    def as_json(self) -> dict[str, object]:
        return {"ok": self.ok, "detail": self.detail}


def run_checks() -> dict[str, Check]:
    results = {
        "database": _guarded(_database),
        "cache": _guarded(_cache),
        "broker": _guarded(_broker),
        "worker": _guarded(lambda: _heartbeat("worker")),
        "beat": _guarded(lambda: _heartbeat("beat")),
    }
    for service in SERVICES:
        if all(settings.PROVIDER[service.key].values()):
            results[f"provider.{service.key}"] = _guarded(partial(_contact, service.key))
    return results


def _guarded(check: Callable[[], Check]) -> Check:
    try:
        return check()
    except Exception as error:  # a check that cannot even run has failed, with the reason
        return Check(False, f"{type(error).__name__}: {error}")


def _database() -> Check:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return Check(True, connection.vendor)


def _cache() -> Check:
    key, value = f"ready:{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, timeout=10)
    ok = cache.get(key) == value
    cache.delete(key)
    return Check(ok, "" if ok else gettext("the cache did not give back what was written"))


def _broker() -> Check:
    from backoffice.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT_S)
        return Check(True, conn.transport_cls if isinstance(conn.transport_cls, str) else "")


def _heartbeat(kind: str) -> Check:
    seen = heartbeats.last_seen(kind)
    if seen is None:
        return Check(False, gettext("no heartbeat yet"))
    age = timezone.now() - seen
    detail = _age_text(seen, age)
    return Check(age <= HEARTBEAT_MAX_AGE, detail)


def _contact(service: str) -> Check:
    contact = ProviderContact.objects.filter(service=service).first()
    if contact is None:
        return Check(True, gettext("not contacted yet"))
    detail = _age_text(contact.at, timezone.now() - contact.at)
    if not contact.ok:
        detail = f"{detail}: {contact.detail}"
    return Check(contact.ok, detail)


def _age_text(at: datetime, age: timedelta) -> str:
    return gettext("%(seconds)s s ago (%(at)s)") % {
        "seconds": int(age.total_seconds()), "at": at.isoformat(timespec="seconds")}
