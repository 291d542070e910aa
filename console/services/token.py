"""The one console Bearer token shared by every process (web, workers, beat).

The same design as the top-up token (topup.services.shared_token), for the same reasons:

- the truth is row 1 of `ConsoleBearer` (the token sealed like every credential); a renewal
  runs inside a transaction holding `select_for_update` on that row, so one process at a time
  asks `/oauth/tokens`, and a process that waited re-reads the row and takes the token another
  one just got instead of asking again;
- Django's cache holds a copy (still sealed) as the fast path. It is overwritten only under the
  lock and otherwise only filled when empty, so it never goes back to an older token. Unlike
  the top-up token, a cache that fails (Redis down) is only a slower path: every cache call is
  guarded and the database answers;
- the token is renewed `RENEW_BEFORE` ahead of `expired_at` (tokens last 30 days), and a token
  the console refuses (10401) is replaced once, by `ConsoleClient`, through `refresh`.

A console token does not void the earlier ones (the decisions' contract), so sharing is not
needed for correctness as it is for top-up; it keeps the account's token list short and saves
a token request per process and per start.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from console.client import ConsoleError, ConsoleToken
from console.models import ConsoleBearer
from console.sealed import UnreadableCredential, seal, unseal

logger = logging.getLogger(__name__)

CACHE_KEY = "console:bearer"
ROW_ID = 1
# Renewed a day before it expires: a token taken from the store stays good for any call.
RENEW_BEFORE = timedelta(days=1)


class ConsoleTokenUnavailable(ConsoleError):
    """No token could be obtained; the call that needed it was not sent."""


def _due(expired_at: datetime | None, now: datetime) -> bool:
    return expired_at is None or now >= expired_at - RENEW_BEFORE


def _cache_get() -> tuple[str, datetime] | None:
    try:
        cached: Any = cache.get(CACHE_KEY)
    except Exception:  # noqa: BLE001 - any cache failure: the database answers instead
        logger.warning("cache unavailable for the console token; reading the database",
                       exc_info=True)
        return None
    if not isinstance(cached, dict):
        return None
    sealed, expired_at = cached.get("sealed"), cached.get("expired_at")
    if not isinstance(sealed, str) or not isinstance(expired_at, datetime):
        return None
    try:
        return unseal(sealed), expired_at
    except UnreadableCredential:  # sealed under a key since removed: the database decides
        return None


def _cache_put(token: str, expired_at: datetime, *, only_if_absent: bool = False) -> None:
    timeout = max((expired_at - timezone.now()).total_seconds(), 1)
    value = {"sealed": seal(token), "expired_at": expired_at}
    try:
        if only_if_absent:
            cache.add(CACHE_KEY, value, timeout=timeout)
        else:
            cache.set(CACHE_KEY, value, timeout=timeout)
    except Exception:  # noqa: BLE001 - the cache is a fast path only
        logger.warning("cache unavailable: the console token is kept in the database only",
                       exc_info=True)


def forget_cached() -> None:
    """Drop the cached copy (tests that rewrite the row directly)."""
    try:
        cache.delete(CACHE_KEY)
    except Exception:  # noqa: BLE001
        logger.warning("cache unavailable: nothing to forget", exc_info=True)


def stored_token() -> tuple[str, datetime] | None:
    """The shared token and its expiry, from the cache or the database; takes no lock."""
    cached = _cache_get()
    if cached is not None:
        return cached
    row = ConsoleBearer.objects.filter(pk=ROW_ID).first()
    if row is None or not row.token or row.expired_at is None:
        return None
    # add, not set: fills a gap only, so it never overwrites a newer token set under the lock.
    _cache_put(row.token, row.expired_at, only_if_absent=True)
    return row.token, row.expired_at


class SharedConsoleTokens:
    """`console.client.TokenSupply` shared across processes through the database.

    `fetch` asks the console for a token (typically `client.fetch_token`); it runs while the
    row lock is held, so no second process asks at the same time.
    """

    def __init__(self, fetch: Callable[[], ConsoleToken]) -> None:
        self._fetch = fetch

    def current(self) -> str:
        held = stored_token()
        if held is not None and not _due(held[1], timezone.now()):
            return held[0]
        return self._replace(rejected=held[0] if held else "", reason="due for renewal")

    def refresh(self, rejected: str) -> str:
        return self._replace(rejected=rejected, reason="refused by the console")

    def _replace(self, rejected: str, reason: str) -> str:
        ConsoleBearer.objects.get_or_create(pk=ROW_ID)
        try:
            with transaction.atomic():
                row = ConsoleBearer.objects.select_for_update().get(pk=ROW_ID)
                if row.token and row.token != rejected and not _due(row.expired_at,
                                                                    timezone.now()):
                    # Another process renewed it while this one waited for the lock.
                    assert row.expired_at is not None
                    _cache_put(row.token, row.expired_at)
                    return str(row.token)
                fresh = self._fetch()
                row.token = fresh.access_token
                row.expired_at = fresh.expired_at
                row.obtained_at = timezone.now()
                row.renewals += 1
                row.save()
                _cache_put(fresh.access_token, fresh.expired_at)
        except ConsoleError as error:
            raise ConsoleTokenUnavailable(f"/oauth/tokens failed: {error}") from error
        logger.info("console token replaced (%s); renewal #%d", reason, row.renewals)
        return fresh.access_token
