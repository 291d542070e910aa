"""A campaign whose worker dies mid-way resumes without sending any number twice.

Checked at the sandbox's own delivery report: every number has exactly one message, and our
rows hold exactly the provider's message ids.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from sms import services
from sms.models import Campaign, CampaignState, Chunk, ChunkState, Message, MessageStatus
from tests.sms.conftest import (
    let_backoff_pass,
    let_grace_pass,
    provider_report,
    sandbox_settings,
)

ROOT = Path(__file__).resolve().parents[2]


def numbers(count: int) -> list[str]:
    return [f"1390{n:07d}" for n in range(count)]


def queued_campaign(template, mobiles: list[str], values: list[str]) -> Campaign:
    preview = services.preview_recipients(template, "\n".join(mobiles), values)
    campaign = services.store_recipients(template, preview.good)
    Campaign.objects.filter(pk=campaign.pk).update(
        state=CampaignState.QUEUED, confirmed_at=timezone.now()
    )
    return campaign


def assert_each_number_sent_once(sandbox, mobiles: list[str]) -> None:
    records = provider_report(sandbox)
    per_number = Counter(record["mobile"] for record in records)
    assert sorted(per_number) == sorted(mobiles)
    assert set(per_number.values()) == {1}, [m for m, n in per_number.items() if n > 1][:5]
    ours = set(Message.objects.values_list("provider_message_id", flat=True))
    assert ours == {record["id"] for record in records}


@pytest.mark.django_db
@pytest.mark.parametrize("count", [3, 1200])  # per-number lookups, then one pass over the report
def test_an_answer_lost_after_the_provider_accepted_is_reconciled_not_resent(
    provider, sms_template, count
):
    sandbox_settings(provider, general=100_000)
    template = sms_template()
    mobiles = numbers(count)
    campaign = queued_campaign(template, mobiles, ["2468"])
    provider.add_fault(
        service="sms", path="^/api/messages$", method="POST", action="drop", when="after", times=1
    )

    first = services.run_campaign(campaign.pk)
    assert first.again  # uncertain: left for the next run
    assert Message.objects.filter(status=MessageStatus.SUBMITTING).count() == min(count, 1000)
    # The next run, after the backoff, finds them all in the report: no grace period needed.
    let_backoff_pass(campaign)
    services.run_campaign(campaign.pk)

    campaign.refresh_from_db()
    assert campaign.state == CampaignState.DONE
    assert campaign.accepted_count == count
    assert_each_number_sent_once(provider, mobiles)


@pytest.mark.django_db
def test_a_call_that_never_reached_the_provider_is_sent_again(provider, sms_template):
    template = sms_template()
    mobiles = numbers(5)
    campaign = queued_campaign(template, mobiles, ["2468"])
    provider.add_fault(
        service="sms", path="^/api/messages$", method="POST", action="drop", when="before", times=1
    )

    services.run_campaign(campaign.pk)
    # Once the provider could have finished the call, its absence from the report decides.
    let_grace_pass(campaign)
    let_backoff_pass(campaign)
    services.run_campaign(campaign.pk)

    assert Campaign.objects.get(pk=campaign.pk).state == CampaignState.DONE
    assert_each_number_sent_once(provider, mobiles)


def worker_environment(sandbox, redis_url: str) -> dict[str, str]:
    database = connection.settings_dict
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}:"
        f"{database['PORT'] or 5432}/{database['NAME']}"
    )
    return {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": os.environ.get("SECRET_KEY", "x"),
        "SMS_API_URL": sandbox.info["sms_api_url"],
        "SMS_TOKEN": sandbox.info["sms"]["token"],
        "PYTHONUNBUFFERED": "1",
    }


def start_worker(env: dict[str, str], log: Path, name: str) -> subprocess.Popen[bytes]:
    command = [
        str(Path(sys.executable).parent / "celery"),
        "-A",
        "backoffice",
        "worker",
        "--pool",
        "solo",
        "--concurrency",
        "1",
        "--hostname",
        f"{name}@%h",
        "--without-heartbeat",
        "--without-gossip",
        "--without-mingle",
        "--loglevel",
        "INFO",
    ]
    handle = log.open("ab")
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
    )


def wait_for(predicate, timeout_s: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{log.read_text()[-3000:]}")


def kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


@pytest.fixture
def clean_broker(redis_url):
    """The killed worker's task stays unacknowledged in Redis; drop it so that it cannot be
    redelivered into a later test run (where campaign numbers start again at 1)."""
    import redis

    yield redis_url
    redis.Redis.from_url(redis_url).delete("celery", "unacked", "unacked_index", "unacked_mutex")


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_campaign_resumes_without_duplicates(
    provider, postgres, clean_broker, sms_template, tmp_path
):
    redis_url = clean_broker
    from sms import tasks

    sandbox_settings(provider, general=100_000)
    template = sms_template("plain")
    mobiles = numbers(2500)
    campaign = queued_campaign(template, mobiles, [])
    # Every send is answered 4 s after the provider has accepted it: a window to kill in.
    provider.add_fault(
        service="sms",
        path="^/api/messages$",
        method="POST",
        action="delay",
        delay_ms=4000,
        when="after",
    )
    env = worker_environment(provider, redis_url)
    log = tmp_path / "worker.log"
    first = start_worker(env, log, "first")
    try:
        tasks.send_campaign.delay(campaign.pk)
        # Chunk 1 recorded, chunk 2's numbers marked and their call in flight.
        wait_for(
            lambda: Message.objects.filter(
                chunk__number=2, status=MessageStatus.SUBMITTING
            ).exists(),
            90,
            "chunk 2 to be submitted",
            log,
        )
        wait_for(
            lambda: len(provider_report(provider)) >= 2000,
            10,
            "the provider to accept chunk 2",
            log,
        )
        kill(first)
    finally:
        kill(first)
    assert dict(Chunk.objects.filter(campaign=campaign).values_list("number", "state")) == {
        1: ChunkState.SENT,
        2: ChunkState.SENDING,
        3: ChunkState.PENDING,
    }
    assert Message.objects.filter(status=MessageStatus.SUBMITTING).count() == 1000

    provider.control("DELETE", "/faults")
    # The dead worker's lease runs out (two minutes later, here made to have passed)...
    Campaign.objects.filter(pk=campaign.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    second = start_worker(env, log, "second")
    try:
        # ...and the beat job hands the campaign to a live worker.
        assert tasks.resume_stalled_campaigns() == 1
        wait_for(
            lambda: Campaign.objects.get(pk=campaign.pk).state == CampaignState.DONE,
            180,
            "the campaign to finish",
            log,
        )
    finally:
        kill(second)

    campaign.refresh_from_db()
    assert campaign.accepted_count == 2500
    assert_each_number_sent_once(provider, mobiles)
