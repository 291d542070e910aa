"""A send whose answer never came (timeout, 5xx) is not sent again a few seconds later: the
campaign keeps its lease for the whole backoff, so the stalled-campaign sweep leaves it alone,
and a number missing from the report is resent only once the provider has had time to finish
the call that carried it.

Produced for real: the sandbox holds the send call longer than the client's read timeout and
carries it out afterwards, so the report shows nothing while the provider is still working.
"""

from __future__ import annotations

import time
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from sms import services
from sms.models import Campaign, CampaignState, Message, MessageStatus
from sms.services import campaign_lease, campaigns
from tests.sms.conftest import let_backoff_pass, let_grace_pass, provider_report, sandbox_settings

pytestmark = pytest.mark.django_db

PROVIDER_HOLDS_MS = 6000  # the provider works this long on the call; we give up after 1 s


def numbers(count: int) -> list[str]:
    return [f"1360{n:07d}" for n in range(count)]


@pytest.fixture
def slow_provider(provider, settings):
    """Our read timeout is 1 s; the provider's next send call takes 6 s, then goes through."""
    settings.PROVIDER_TIMEOUT_S = 1
    sandbox_settings(provider, general=100_000)
    provider.add_fault(
        service="sms",
        path="^/api/messages$",
        method="POST",
        action="delay",
        delay_ms=PROVIDER_HOLDS_MS,
        when="before",
        times=1,
    )
    yield provider
    # The held call must land before the next test resets the sandbox, or it would land there.
    if provider.control("GET", "/faults").json()["faults"][0]["hits"]:
        time.sleep(PROVIDER_HOLDS_MS / 1000 + 0.5)


def queued_campaign(template, mobiles: list[str]) -> Campaign:
    preview = services.preview_recipients(template, "\n".join(mobiles), ["2468"])
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(
        state=CampaignState.QUEUED, confirmed_at=timezone.now()
    )
    return campaign


def wait_for_provider_records(sandbox, count: int, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while len(provider_report(sandbox)) < count:
        assert time.monotonic() < deadline, "the provider never carried out the held call"
        time.sleep(0.2)


def test_a_timed_out_send_keeps_the_lease_for_its_backoff(slow_provider, sms_template):
    campaign = queued_campaign(sms_template(), numbers(1000))

    first = services.run_campaign(campaign.pk)

    assert first.again and first.countdown >= 30
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.SENDING and campaign.retries == 1
    # Nobody may run it before the backoff is over: not the beat's sweep, not another task.
    assert campaign.lease_expires_at is not None
    assert campaign.lease_expires_at >= timezone.now() + timedelta(seconds=first.countdown - 5)
    assert campaign_lease.stalled_campaigns() == []
    assert services.resume_stalled_campaigns() == []
    assert services.run_campaign(campaign.pk).claimed is False
    assert Message.objects.filter(status=MessageStatus.SUBMITTING).count() == 1000


def test_numbers_missing_from_the_report_wait_for_the_provider_instead_of_being_resent(
    slow_provider, sms_template
):
    mobiles = numbers(1000)
    campaign = queued_campaign(sms_template(), mobiles)
    services.run_campaign(campaign.pk)  # times out while the provider is still working

    # The backoff is over, but the call may still be running at the provider: the report does
    # not show the numbers yet, which proves nothing.
    let_backoff_pass(campaign)
    second = services.run_campaign(campaign.pk)

    assert second.claimed and second.again and second.countdown > 0
    assert Message.objects.filter(status=MessageStatus.SUBMITTING).count() == 1000
    wait_for_provider_records(slow_provider, 1000)
    assert len(provider_report(slow_provider)) == 1000  # sent once, by the held call only

    # Once the provider has had time to finish, the report is the truth: all were accepted.
    let_grace_pass(campaign)
    let_backoff_pass(campaign)
    third = services.run_campaign(campaign.pk)

    assert third.state == CampaignState.DONE
    campaign.refresh_from_db()
    assert campaign.accepted_count == 1000
    per_number = Counter(record["mobile"] for record in provider_report(slow_provider))
    assert sorted(per_number) == sorted(mobiles) and set(per_number.values()) == {1}


def test_waiting_for_the_provider_does_not_use_up_the_retries(slow_provider, sms_template):
    campaign = queued_campaign(sms_template(), numbers(3))
    services.run_campaign(campaign.pk)

    for _ in range(campaigns.MAX_UNCERTAIN_RETRIES + 2):
        let_backoff_pass(campaign)
        services.run_campaign(campaign.pk)

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.SENDING  # still waiting, not halted
    assert campaign.retries == 1


def test_a_number_still_missing_after_the_grace_period_is_sent_again(provider, sms_template):
    provider.add_fault(
        service="sms", path="^/api/messages$", method="POST", action="drop", when="before", times=1
    )
    mobiles = numbers(5)
    campaign = queued_campaign(sms_template(), mobiles)
    services.run_campaign(campaign.pk)  # the call never reached the provider

    let_grace_pass(campaign)
    let_backoff_pass(campaign)
    assert services.run_campaign(campaign.pk).state == CampaignState.DONE

    assert sorted(record["mobile"] for record in provider_report(provider)) == mobiles
