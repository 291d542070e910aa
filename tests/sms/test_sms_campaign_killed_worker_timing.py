"""A worker SIGKILLed mid-campaign: sending goes on within 30 s, each number sent once.

Real processes: two Celery workers and a beat (the leased scheduler, whose stalled-campaign
sweep runs every 10 s), on the test's PostgreSQL and Redis, against the sandbox, where the
numbers are counted. The first worker is killed while a call is out (its numbers accepted by
the provider, the answer not yet back); the time from the kill to the provider's next accepted
number is measured and printed.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from sms.models import Campaign, CampaignState, Message, MessageStatus
from tests.sms.conftest import provider_report, sandbox_settings
from tests.sms.test_sms_campaign_resume import (
    ROOT,
    assert_each_number_sent_once,
    clean_broker,  # noqa: F401 - a fixture
    kill,
    numbers,
    queued_campaign,
    start_worker,
    wait_for,
    worker_environment,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RESUMED_WITHIN_S = 30.0


def start_beat(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    handle = log.open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "backoffice", "beat", "--loglevel", "INFO",
         "--pidfile", ""],
        cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True,
    )


def test_a_killed_workers_campaign_goes_on_within_30_s(
    provider, postgres, clean_broker, sms_template, tmp_path  # noqa: F811
):
    from sms import tasks

    sandbox_settings(provider, general=100_000)
    mobiles = numbers(3000)
    campaign = queued_campaign(sms_template("plain"), mobiles, [])
    # Each send is answered 3 s after the provider took it: the kill lands inside a call.
    provider.add_fault(service="sms", path="^/api/messages$", method="POST", action="delay",
                       delay_ms=3000, when="after")
    env = worker_environment(provider, clean_broker)
    logs = {name: tmp_path / f"{name}.log" for name in ("first", "second", "beat")}
    workers = {name: start_worker(env, logs[name], name) for name in ("first", "second")}
    beat = start_beat(env, logs["beat"])
    try:
        for name in workers:
            wait_for(lambda n=name: "ready." in logs[n].read_text(), 60, f"worker {name}",
                     logs[name])
        tasks.send_campaign.delay(campaign.pk)
        wait_for(lambda: Message.objects.filter(
            chunk__number=2, status=MessageStatus.SUBMITTING).exists(),
            90, "chunk 2 to be submitted", logs["beat"])
        wait_for(lambda: len(provider_report(provider)) >= 2000, 30,
                 "the provider to accept chunk 2", logs["beat"])
        sending = next(name for name in workers
                       if "sms.tasks.send_campaign[" in logs[name].read_text())
        sent_before = len(provider_report(provider))
        kill(workers[sending])
        killed_at = time.monotonic()
        other = next(name for name in workers if name != sending)
        wait_for(lambda: len(provider_report(provider)) > sent_before, 60,
                 "sending to go on", logs[other])
        resumed_s = time.monotonic() - killed_at
        print(f"\ncampaign resumed {resumed_s:.1f} s after its worker was killed")
        assert resumed_s < RESUMED_WITHIN_S, logs[other].read_text()[-3000:]
        wait_for(lambda: Campaign.objects.get(pk=campaign.pk).state == CampaignState.DONE,
                 120, "the campaign to finish", logs[other])
    finally:
        for process in (*workers.values(), beat):
            kill(process)

    campaign.refresh_from_db()
    assert campaign.accepted_count == len(mobiles)
    assert_each_number_sent_once(provider, mobiles)
