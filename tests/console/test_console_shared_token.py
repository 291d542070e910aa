"""One console Bearer token shared by every process: the database row is the truth, the cache
a fast path that may fail, renewal before `expired_at`, one retry on 10401, never shown."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from console.client import ConsoleToken, WrongCredentials
from console.models import ConsoleBearer
from console.services import ConsoleTokenUnavailable, console_client
from console.services.token import ROW_ID, SharedConsoleTokens, forget_cached, stored_token

pytestmark = pytest.mark.django_db


class Counter:
    """A fetch that hands out numbered tokens, expiring in `days`."""

    def __init__(self, days: float = 30) -> None:
        self.calls = 0
        self.days = days

    def __call__(self) -> ConsoleToken:
        self.calls += 1
        return ConsoleToken(f"bearer-{self.calls}", timezone.now() + timedelta(days=self.days))


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    forget_cached()


def test_two_processes_share_one_token(settings: Any) -> None:
    fetch = Counter()
    first, second = SharedConsoleTokens(fetch), SharedConsoleTokens(fetch)
    assert first.current() == "bearer-1"
    forget_cached()  # the second process reads the database, not this one's cache entry
    assert second.current() == "bearer-1"
    assert fetch.calls == 1


def test_a_token_is_renewed_a_day_before_it_expires() -> None:
    fetch = Counter(days=0.5)
    tokens = SharedConsoleTokens(fetch)
    assert tokens.current() == "bearer-1"
    assert tokens.current() == "bearer-2"  # half a day left: due
    assert ConsoleBearer.objects.get(pk=ROW_ID).renewals == 2


def test_a_refused_token_already_replaced_elsewhere_is_not_replaced_again() -> None:
    fetch = Counter()
    tokens = SharedConsoleTokens(fetch)
    tokens.current()
    tokens.refresh("bearer-1")  # refused: replaced by bearer-2
    assert tokens.refresh("bearer-1") == "bearer-2"  # a slower process refused the old one
    assert fetch.calls == 2


def test_the_token_is_sealed_at_rest_and_never_in_str() -> None:
    SharedConsoleTokens(Counter()).current()
    with connection.cursor() as cursor:
        cursor.execute("SELECT token FROM console_consolebearer")
        (raw,) = cursor.fetchone()
    assert "bearer-1" not in raw and raw.startswith("f1:")
    assert "bearer-1" not in str(ConsoleBearer.objects.get(pk=ROW_ID))


def test_a_cache_that_is_down_leaves_the_database_answering(settings: Any) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:9/0"}}
    fetch = Counter()
    tokens = SharedConsoleTokens(fetch)
    assert tokens.current() == "bearer-1"
    assert tokens.current() == "bearer-1"
    assert stored_token() is not None
    assert fetch.calls == 1


def test_a_failed_token_request_is_token_unavailable() -> None:
    def refused() -> ConsoleToken:
        raise WrongCredentials("/oauth/tokens", 401, 10402, "wrong password")

    with pytest.raises(ConsoleTokenUnavailable):
        SharedConsoleTokens(refused).current()
    assert not ConsoleBearer.objects.filter(token__gt="").exists()


@pytest.mark.django_db(transaction=True)
def test_the_configured_client_shares_its_token_and_survives_a_stale_one(provider) -> None:
    bucket = provider.info["storage"]["bucket"]
    assert console_client().service_info(bucket).business_type == "file"
    row = ConsoleBearer.objects.get(pk=ROW_ID)
    first = row.token
    assert console_client().service_info(bucket).name == bucket
    assert ConsoleBearer.objects.get(pk=ROW_ID).renewals == 1
    # A token the console does not know (revoked, or the sandbox reset): 10401, renewed once.
    row.token = "revoked-token"
    row.save()
    forget_cached()
    assert console_client().service_info(bucket).name == bucket
    renewed = ConsoleBearer.objects.get(pk=ROW_ID)
    assert renewed.renewals == 2 and renewed.token not in (first, "revoked-token")
