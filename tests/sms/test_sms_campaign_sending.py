"""Campaign sending: chunks of at most 1000 numbers, each recorded before the next, one call
per set of variable values, per-number results, the lease, cancel, and a real Celery worker."""

from __future__ import annotations

from collections import Counter

import pytest

from sms import services
from sms.models import Campaign, CampaignState, Chunk, ChunkState, Message, MessageStatus
from sms.services import campaign_lease
from tests.sms.conftest import (
    let_backoff_pass,
    let_grace_pass,
    provider_report,
    sandbox_settings,
)

pytestmark = pytest.mark.django_db


def numbers(count: int, start: int = 0) -> list[str]:
    return [f"1380{n:07d}" for n in range(start, start + count)]


def queued_campaign(template, lines: str, shared: list[str] | None = None) -> Campaign:
    preview = services.preview_recipients(template, lines, shared or [])
    assert not preview.bad
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(state=CampaignState.QUEUED)
    return campaign


def test_each_chunk_is_recorded_before_the_next_starts(provider, sms_template):
    sandbox_settings(provider, general=100_000)
    template = sms_template("plain")
    campaign = queued_campaign(template, "\n".join(numbers(2500)))
    # The first call fails before reaching the provider; the next run finds nothing sent
    # in the report and sends it, then the rest.
    provider.add_fault(
        service="sms",
        path="^/api/messages$",
        method="POST",
        action="status",
        status=500,
        body={"error_code": "SMS_SYSTEM_ERROR", "message": "x"},
        times=1,
    )
    services.run_campaign(campaign.pk)  # first call fails
    let_grace_pass(campaign)  # the provider could have finished it: the report decides
    let_backoff_pass(campaign)
    outcome = services.run_campaign(campaign.pk)  # recovers, sends everything

    assert outcome.state == CampaignState.DONE
    states = list(Chunk.objects.filter(campaign=campaign).values_list("number", "size", "state"))
    assert states == [(1, 1000, "sent"), (2, 1000, "sent"), (3, 500, "sent")]
    per_number = Counter(record["mobile"] for record in provider_report(provider))
    assert len(per_number) == 2500 and set(per_number.values()) == {1}
    ours = set(Message.objects.values_list("provider_message_id", flat=True))
    assert ours == {record["id"] for record in provider_report(provider)}


def test_a_failed_call_leaves_later_chunks_untouched(provider, sms_template):
    sandbox_settings(provider, general=100_000)
    template = sms_template("plain")
    campaign = queued_campaign(template, "\n".join(numbers(2500)))
    provider.add_fault(
        service="sms",
        path="^/api/messages$",
        method="POST",
        action="status",
        status=500,
        body={"error_code": "SYSTEM_ERROR", "message": "x"},
    )
    # Nothing of chunk 2 may be touched while chunk 1 is open.
    services.run_campaign(campaign.pk)

    chunks = dict(Chunk.objects.filter(campaign=campaign).values_list("number", "state"))
    assert chunks == {1: ChunkState.SENDING, 2: ChunkState.PENDING, 3: ChunkState.PENDING}
    assert Message.objects.filter(chunk__number=1, status=MessageStatus.SUBMITTING).count() == 1000
    assert (
        not Message.objects.filter(chunk__number__gt=1)
        .exclude(status=MessageStatus.QUEUED)
        .exists()
    )


def test_numbers_with_different_values_go_in_separate_calls(provider, sms_template):
    template = sms_template()
    lines = "13800138000,111111\n13900139000,222222\n13700137000,111111"
    campaign = queued_campaign(template, lines)

    services.run_campaign(campaign.pk)

    texts = {record["mobile"]: record["content"] for record in provider_report(provider)}
    assert texts == {
        "13800138000": "【示例商城】您的验证码是111111，5分钟内有效。",
        "13900139000": "【示例商城】您的验证码是222222，5分钟内有效。",
        "13700137000": "【示例商城】您的验证码是111111，5分钟内有效。",
    }
    assert set(Message.objects.values_list("text", flat=True)) == set(texts.values())


def test_a_second_run_does_nothing_while_the_lease_is_held(provider, sms_template):
    template = sms_template()
    campaign = queued_campaign(template, "13800138000", ["1"])
    token = campaign_lease.claim(campaign.pk)
    assert token

    outcome = services.run_campaign(campaign.pk)

    assert not outcome.claimed
    assert provider_report(provider) == []
    campaign_lease.release(campaign.pk, token)
    assert services.run_campaign(campaign.pk).state == CampaignState.DONE


def test_cancelling_stops_the_numbers_not_yet_sent(
    provider, sms_template, django_capture_on_commit_callbacks
):
    template = sms_template("plain")
    campaign = queued_campaign(template, "\n".join(numbers(1500)))
    provider.add_fault(
        service="sms",
        path="^/api/messages$",
        method="POST",
        action="status",
        status=409,
        body={"error_code": "TEMPLATE_AUDITING", "message": ""},
        times=1,
    )
    services.run_campaign(campaign.pk)
    campaign.refresh_from_db()
    assert campaign.state == CampaignState.HALTED

    with django_capture_on_commit_callbacks(execute=False):
        cancelled = services.cancel_campaign(campaign)
    services.run_campaign(campaign.pk)

    campaign.refresh_from_db()
    assert cancelled == 1500
    assert campaign.state == CampaignState.CANCELLED and campaign.cancelled_count == 1500
    assert not Chunk.objects.filter(campaign=campaign).exclude(state=ChunkState.SENT).exists()
    assert provider_report(provider) == []


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_sends_a_confirmed_campaign(provider, redis_url, sms_template):
    from celery.contrib.testing.worker import start_worker

    from backoffice.celery import app

    template = sms_template()
    preview = services.preview_recipients(template, "\n".join(numbers(30)), ["7"])
    campaign = services.store_recipients(template, preview.good)
    with start_worker(app, perform_ping_check=False, pool="solo"):
        services.confirm_campaign(campaign)
        for _ in range(300):
            campaign.refresh_from_db()
            if campaign.state == CampaignState.DONE:
                break
            import time

            time.sleep(0.1)
    assert campaign.state == CampaignState.DONE
    assert campaign.accepted_count == 30
    assert len(provider_report(provider)) == 30
