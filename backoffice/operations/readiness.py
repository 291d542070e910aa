"""What `/ready` checks: the database, the cache and the broker, a worker and the beat alive in
the last minute, and each configured provider's last contact.

Each check answers alone, so one failure never hides another, with two rules that keep the
answer useful during an outage of our own infrastructure:

- **The root cause, not its echoes.** The heartbeats and the providers' last contacts are rows
  in the database: while it is unreachable they are not checked (`ok` null, "not checked")
  and only `database` is named as failed.
- **Degraded is not down.** Without Redis the product carries on (cache reads are misses,
  throttles allow, queued work waits for the sweeps): the cache and the broker are named under
  `degraded`, and `/ready` stays 200, so that a load balancer does not take every host out for
  a Redis shared by all of them (docs/decisions.md, "Outages of our own infrastructure"). The
  same holds for a provider whose last contact failed: every host is as affected, and staff
  pages, the merchant API and the callbacks keep working while it is away.

Network probes use their own short timeouts (PROBE_TIMEOUT_S), so that `/ready` answers
within half a second whatever is down.
"""

from __future__ import annotations

import importlib
import importlib.util
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext

from backoffice.catalogue import SERVICES, Service
from backoffice.models import ProviderContact
from backoffice.operations import heartbeats

HEARTBEAT_MAX_AGE = timedelta(seconds=60)
# Seconds a probe of Redis waits to connect and for each answer: a local or LAN Redis answers
# in a millisecond; two probes (cache, broker) stay well within /ready's half second.
PROBE_TIMEOUT_S = 0.15
# What a failure of these checks means: the product works without them, more slowly.
DEGRADING = frozenset({"cache", "broker"})


@dataclass(frozen=True)
class Check:
    ok: bool | None  # None: not checked, because something it needs has failed
    detail: str

    def as_json(self) -> dict[str, object]:
        return {"ok": self.ok, "detail": self.detail}


@dataclass(frozen=True)
class Readiness:
    checks: dict[str, Check]
    failed: list[str] = field(default_factory=list)  # each a cause: /ready answers 503
    degraded: list[str] = field(default_factory=list)  # working without it: still 200

    @property
    def ready(self) -> bool:
        return not self.failed


def assess() -> Readiness:
    checks = run_checks()
    failed = [name for name, check in checks.items()
              if check.ok is False and not _degrading(name)]
    degraded = [name for name, check in checks.items()
                if check.ok is False and _degrading(name)]
    return Readiness(checks, failed, degraded)


def run_checks() -> dict[str, Check]:
    database = _guarded(_database)
    database_up = bool(database.ok)
    results = {"database": database,
               "cache": _guarded(_cache) if database_up or not _database_cache()
               else _not_checked(),
               "broker": _guarded(_broker)}
    needing_database: dict[str, Callable[[], Check]] = {
        "worker": lambda: _heartbeat("worker"),
        "beat": lambda: _heartbeat("beat"),
    }
    for service in SERVICES:
        if all(settings.PROVIDER[service.key].values()):
            needing_database[f"provider.{service.key}"] = partial(_contact, service.key)
            needing_database.update(_app_checks(service))
    for name, check in needing_database.items():
        # Not even tried while the database is down: each would wait for it and fail.
        results[name] = _guarded(check) if database_up else _not_checked()
    return results


def _degrading(name: str) -> bool:
    # A provider away, or an app's `.attention` check (something a person must do at the
    # provider): every host is as affected, so it is reported without taking hosts out of the
    # load balancer.
    return name in DEGRADING or name.startswith("provider.") or name.endswith(".attention")


def _app_checks(service: Service) -> dict[str, Callable[[], Check]]:
    """The check an app adds (hook: `<app>.readiness.attention()` answering (ok, detail)),
    named `<service>.attention`: something a person must do at the provider."""
    module_name = f"{service.app_label}.readiness"
    if importlib.util.find_spec(module_name) is None:
        return {}
    return {f"{service.key}.attention": partial(_attention, module_name)}


def _attention(module_name: str) -> Check:
    ok, detail = importlib.import_module(module_name).attention()
    return Check(bool(ok), str(detail))


def _not_checked() -> Check:
    return Check(None, gettext("not checked: the database is unreachable"))


def _guarded(check: Callable[[], Check]) -> Check:
    try:
        return check()
    except Exception as error:  # a check that cannot even run has failed, with the reason
        return Check(False, f"{type(error).__name__}: {error}")


def _database() -> Check:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return Check(True, connection.vendor)


def _database_cache() -> bool:
    return "RedisCache" not in settings.CACHES["default"]["BACKEND"]


def _probe_redis(url: str) -> None:
    """Write, read back and delete a key with short timeouts; raises on any failure."""
    client = redis.Redis.from_url(url, socket_connect_timeout=PROBE_TIMEOUT_S,
                                  socket_timeout=PROBE_TIMEOUT_S)
    try:
        key, value = f"ready:{uuid.uuid4().hex}", uuid.uuid4().hex.encode()
        client.set(key, value, ex=10)
        if client.get(key) != value:
            raise redis.RedisError(gettext("the cache did not give back what was written"))
        client.delete(key)
    finally:
        client.close()


def _cache() -> Check:
    if not _database_cache():
        _probe_redis(str(settings.CACHES["default"]["LOCATION"]))
        return Check(True, "redis")
    key, value = f"ready:{uuid.uuid4().hex}", uuid.uuid4().hex
    cache.set(key, value, timeout=10)
    ok = cache.get(key) == value
    cache.delete(key)
    return Check(ok, "" if ok else gettext("the cache did not give back what was written"))


def _broker() -> Check:
    url = str(settings.CELERY_BROKER_URL)
    if url.startswith(("redis://", "rediss://")):
        _probe_redis(url)
        return Check(True, "redis")
    from backoffice.celery import app

    with app.connection_for_write() as conn:  # the file-system transport: local, no network
        conn.ensure_connection(max_retries=1)
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
