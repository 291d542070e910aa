"""A scheduled campaign starts once, at its time, across a restart of beat and worker.

Two clocks move together: the back-office's (time-machine, in this process, where beat's job
runs) and the provider's (the sandbox clock, `POST /clock/advance`). The worker is a real
Celery process on Redis, stopped and started again in between; two beats run the due-campaign
job at the same time after the restart.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from backoffice.models import AuditEntry
from sms import services, tasks
from sms.models import Campaign, CampaignState
from tests.sms.conftest import provider_report
from tests.sms.test_sms_campaign_resume import (
    assert_each_number_sent_once,
    kill,
    numbers,
    start_worker,
    wait_for,
    worker_environment,
)


@pytest.fixture
def broker(redis_url):
    """Tasks a stopped worker left in Redis must not reach a later test's worker."""
    import redis

    yield redis_url
    redis.Redis.from_url(redis_url).delete("celery", "unacked", "unacked_index", "unacked_mutex")


def beats_at_once(count: int) -> list[int]:
    """`count` beats running the due-campaign job at the same moment, each with its own
    database connection, as beats on two hosts would."""
    results: list[int] = []
    barrier = threading.Barrier(count)

    def beat() -> None:
        try:
            barrier.wait()
            results.append(tasks.start_due_campaigns())
        finally:
            connection.close()

    threads = [threading.Thread(target=beat) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@pytest.mark.django_db(transaction=True)
def test_a_scheduled_campaign_starts_once_at_its_time_across_a_restart_of_beat_and_worker(
    provider, postgres, broker, sms_template, tmp_path
):
    template = sms_template("code")
    mobiles = numbers(5)
    preview = services.preview_recipients(template, "\n".join(mobiles), ["2468"])
    campaign = services.store_recipients(template, preview.good)
    start_at = (timezone.now() + timedelta(hours=2)).replace(second=0, microsecond=0)
    services.confirm_campaign(campaign, start_at=start_at)

    env = worker_environment(provider, broker)
    log = tmp_path / "worker.log"
    first = start_worker(env, log, "first")
    try:
        # Beat before the time, a minute early: nothing starts, the worker gets nothing.
        with time_machine.travel(start_at - timedelta(minutes=1), tick=True):
            assert tasks.start_due_campaigns() == 0
        assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.SCHEDULED
    finally:
        kill(first)  # the worker (and, with this process's job, beat) go down

    # Two hours pass for the provider too.
    provider.control("POST", "/clock/advance", {"seconds": 2 * 3600})
    second = start_worker(env, log, "second")
    try:
        with time_machine.travel(start_at + timedelta(seconds=20), tick=True):
            # Both beats fire within the minute after the time: one of them starts it.
            assert sorted(beats_at_once(2)) == [0, 1]
            assert tasks.start_due_campaigns() == 0  # and a late third run does nothing
        wait_for(
            lambda: Campaign.objects.get(pk=campaign.pk).state == CampaignState.DONE,
            120,
            "the campaign to be sent by the new worker",
            log,
        )
    finally:
        kill(second)

    campaign.refresh_from_db()
    assert campaign.accepted_count == 5
    assert AuditEntry.objects.filter(action="campaign.start").count() == 1
    assert_each_number_sent_once(provider, mobiles)
    # On the provider's clock too, they went out after the scheduled time, not before.
    created = [
        datetime.fromisoformat(record["created_at"].replace("Z", "+00:00"))
        for record in provider_report(provider)
    ]
    assert min(created) >= start_at
