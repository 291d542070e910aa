"""Personalised campaigns keep several provider calls in flight (SMS_SEND_CONCURRENCY), every
number still sent once; a 429 pauses every call for its Retry-After and the same numbers go
again; a 5xx among the calls in flight stops the run, and the next one reconciles."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest
from django.test import override_settings

from backoffice.operations.provider import provider_observers, provider_settings
from sms import services
from sms.client import SmsClient
from sms.errors import RateLimitedError
from sms.models import Campaign, CampaignState, Message, MessageStatus
from sms.services.calls_in_flight import SHARED_PAUSE_KEY, Throttle
from sms.services.connection import CONNECT_TIMEOUT_S
from tests.foundation.test_redirects_and_soft_cache import UNREACHABLE_CACHE
from tests.sms.conftest import (
    let_backoff_pass,
    let_grace_pass,
    provider_report,
    sandbox_settings,
)

pytestmark = pytest.mark.django_db


class WatchedClient(SmsClient):
    """The real client, noting how many sends are out at once and when each 429 came."""

    def __init__(self) -> None:
        values = provider_settings("sms")
        super().__init__(values["api_url"], values["token"], timeout=(CONNECT_TIMEOUT_S, 15.0),
                         observers=provider_observers("sms"))
        self._lock = threading.Lock()
        self.out = 0
        self.most_out = 0
        self.starts: list[float] = []
        self.limited: list[tuple[float, float | None]] = []  # (when, Retry-After)

    def send(self, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.out += 1
            self.most_out = max(self.most_out, self.out)
            self.starts.append(time.monotonic())
        try:
            return super().send(*args, **kwargs)
        except RateLimitedError as error:
            with self._lock:
                self.limited.append((time.monotonic(), error.retry_after_s))
            raise
        finally:
            with self._lock:
                self.out -= 1


def personalised(template, count: int) -> Campaign:
    lines = "\n".join(f"1370{n:07d},{100000 + n}" for n in range(count))
    preview = services.preview_recipients(template, lines, [])
    assert not preview.bad
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.QUEUED)
    return campaign


def assert_each_number_once(provider, count: int) -> None:
    per_number = Counter(record["mobile"] for record in provider_report(provider))
    assert len(per_number) == count and set(per_number.values()) == {1}
    assert Message.objects.filter(status=MessageStatus.PROCESSING).count() == count


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_personalised_campaign_keeps_the_set_number_of_calls_in_flight(
        provider, sms_template, settings, concurrency):
    settings.SMS_SEND_CONCURRENCY = concurrency
    # A provider's answer time, so calls overlap however fast this machine marks the next one.
    sandbox_settings(provider, general=100_000, send_latency_s=0.05)
    campaign = personalised(sms_template(), 40)
    client = WatchedClient()

    outcome = services.run_campaign(campaign.pk, client=client)

    assert outcome.state == CampaignState.DONE
    assert client.most_out == concurrency
    assert len(client.starts) == 40  # one call per set of values
    assert_each_number_once(provider, 40)


def test_a_429_pauses_every_call_for_its_retry_after_and_the_numbers_go_again(
        provider, sms_template, settings):
    settings.SMS_SEND_CONCURRENCY = 4
    sandbox_settings(provider, general=100_000, calls_per_second=5)
    campaign = personalised(sms_template(), 24)
    client = WatchedClient()

    outcome = services.run_campaign(campaign.pk, client=client)

    assert outcome.state == CampaignState.DONE
    assert client.limited, "the sandbox's limit of 5 calls a second was never reached"
    assert {retry_after for _when, retry_after in client.limited} == {1.0}
    # No call started inside the pause a 429 asked for, once the run could know of it (the
    # answer reaches the run's thread a moment after the pool's; calls already out finish).
    for when, retry_after in client.limited:
        assert retry_after is not None
        inside = [start for start in client.starts
                  if when + 0.1 < start < when + retry_after - 0.05]
        assert inside == []
    assert_each_number_once(provider, 24)
    assert Campaign.objects.get(pk=campaign.pk).halt_code == ""


def test_a_5xx_among_the_calls_in_flight_stops_the_run_and_the_next_reconciles(
        provider, sms_template, settings):
    settings.SMS_SEND_CONCURRENCY = 4
    sandbox_settings(provider, general=100_000)
    campaign = personalised(sms_template(), 12)
    provider.add_fault(service="sms", path="^/api/messages$", method="POST", action="status",
                       status=500, body={"error_code": "SYSTEM_ERROR", "message": "injected"},
                       times=1)

    first = services.run_campaign(campaign.pk, client=WatchedClient())

    assert first.again and first.countdown > 0
    campaign.refresh_from_db()
    assert campaign.halt_code == "SYSTEM_ERROR"
    # Only the refused call's number is in doubt: the calls out beside it were recorded.
    assert Message.objects.filter(status=MessageStatus.SUBMITTING).count() == 1
    let_grace_pass(campaign)
    let_backoff_pass(campaign)
    services.run_campaign(campaign.pk)
    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.DONE
    assert_each_number_once(provider, 12)


# --- the throttle


def test_a_429_halves_the_calls_in_flight_and_successes_add_them_back() -> None:
    now = [0.0]
    throttle = Throttle(4, clock=lambda: now[0])
    assert throttle.rate_limited(2.0) == 2.0
    assert (throttle.limit, throttle.wait_s()) == (2, 2.0)
    throttle.rate_limited(None)
    assert throttle.limit == 1
    now[0] = 10.0
    for _ in range(1 + 2 + 3):  # a run of successes as long as the limit adds one
        throttle.succeeded()
    assert throttle.limit == 4
    throttle.succeeded()
    assert throttle.limit == 4  # never above the setting


def test_without_retry_after_the_pause_doubles_up_to_its_cap() -> None:
    now = [0.0]
    throttle = Throttle(4, clock=lambda: now[0])
    assert [throttle.rate_limited(None) for _ in range(7)] == [1, 2, 4, 8, 16, 30, 30]
    throttle.succeeded()
    assert throttle.rate_limited(None) == 1


def test_a_pause_is_shared_with_every_run_through_the_cache() -> None:
    from django.core.cache import cache

    cache.delete(SHARED_PAUSE_KEY)
    Throttle(4).rate_limited(3.0)
    other_run = Throttle(4)
    assert 2.0 < other_run.wait_s() <= 3.0
    cache.delete(SHARED_PAUSE_KEY)
    assert other_run.wait_s() == 0.0


@override_settings(CACHES=UNREACHABLE_CACHE)
def test_without_the_cache_a_run_keeps_its_own_pause_and_raises_nothing() -> None:
    # A Redis outage stopped every campaign run at its first call (issue 28's outage test).
    throttle = Throttle(4)
    assert throttle.wait_s() == 0.0
    assert throttle.rate_limited(2.0) == 2.0
    assert 1.0 < throttle.wait_s() <= 2.0
