"""Unknown API tokens are limited per client address (API_UNKNOWN_TOKENS_PER_MINUTE, then 429
with Retry-After until the minute ends, even for a good key) and audited as one entry per
address and minute with the count, not one row per attempt."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from backoffice.models import AddressTally, AuditEntry
from topup import services

pytestmark = pytest.mark.django_db

ORDER_URL = "/api/topup/orders/NOPE/"


def get(key: str, address: str = "203.0.113.9"):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client.get(ORDER_URL, REMOTE_ADDR=address)


def test_past_the_limit_an_address_gets_429_with_retry_after_even_with_a_good_key(
    operator, settings
):
    settings.API_UNKNOWN_TOKENS_PER_MINUTE = 3
    _token, good = services.create_token(user=operator, name="ERP", scopes=["orders:read"])
    assert [get(f"mt_guess{n}").status_code for n in range(3)] == [401, 401, 401]
    limited = get("mt_guess4")
    assert limited.status_code == 429
    assert limited.json()["reason"] == "too_many_unknown_tokens"
    assert 1 <= int(limited["Retry-After"]) <= 60
    assert get(good).status_code == 429  # the address waits for the minute to end
    assert get(good, address="198.51.100.1").status_code == 404  # another address does not


def test_the_limit_holds_with_the_cache_down(operator, settings):
    settings.API_UNKNOWN_TOKENS_PER_MINUTE = 2
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0"}}
    assert [get(f"mt_guess{n}").status_code for n in range(4)] == [401, 401, 429, 429]


def test_a_minutes_unknown_tokens_become_one_audit_entry_with_the_count(settings):
    settings.API_UNKNOWN_TOKENS_PER_MINUTE = 100
    for n in range(25):
        get(f"mt_guess{n}")
    get("mt_other", address="2001:db8:5:6::1")
    assert not AuditEntry.objects.filter(action="api_token.refused").exists()
    assert services.report_unknown_tokens() == 0  # the minute is not over yet
    AddressTally.objects.update(minute=AddressTally.objects.get(count=25).minute
                                - timedelta(minutes=1))
    assert services.report_unknown_tokens() == 2
    assert services.report_unknown_tokens() == 0  # each minute reported once
    entry = AuditEntry.objects.get(action="api_token.refused", address="203.0.113.9")
    assert entry.outcome == "refused" and entry.summary.startswith("unknown API tokens: 25,")
    network = AuditEntry.objects.get(action="api_token.refused", object_id="2001:db8:5:6::/64")
    assert network.summary.startswith("unknown API tokens: 1,")


def test_the_retired_token_scheme_is_refused_with_a_reason_and_counted():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef01234567")
    response = client.get(ORDER_URL)
    assert response.status_code == 401
    assert response.json()["reason"] == "retired_scheme"
    assert "Bearer" in response.json()["detail"]
    assert AddressTally.objects.get(kind="api_token_unknown").count == 1
