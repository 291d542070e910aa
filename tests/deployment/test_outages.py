"""Outages of our own infrastructure, and the provider's, under load (issue 28): nothing lost
or doubled, every answer 2xx or a 503 with Retry-After, every receipt judged, every scheduled
job once per due time; the recovery times observed are printed (docs/deployment.md, "What
happens when").

A deployment on a private PostgreSQL and Redis (outage_support.py) takes API orders (each sent
twice with its Idempotency-Key), the sandbox's callbacks for them, and SMS campaigns, while the
test, in turn: restarts Redis (empty, as after a crash: queued tasks are gone), restarts
PostgreSQL (a fast shutdown cuts every connection), SIGKILLs the worker sending a campaign,
SIGKILLs the active beat, and takes the provider down (the sandbox answers 503) and back. Then
every order is sent once more and everything settles.

Every wait is on a condition with a deadline far above what an idle machine needs (the test
shares two cores with the suite and other jobs); a wait that runs out says what it last saw,
and a failure prints the timeline and each process's errors and last lines.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import requests
from django.db import connection

from tests.conftest import need
from tests.deployment.outage_support import (
    Deployment,
    OrderLoad,
    Recovery,
    wait_for,
    wait_until,
)
from tests.private_services import PrivatePostgres, PrivateRedis, free_port
from tests.sandbox_process import ROOT

pytestmark = pytest.mark.services

WORKERS = ("worker-a", "worker-b")
BEATS = ("beat-a", "beat-b")
# One call per number (each has its own value), each answered a second late (4 calls in
# flight: about 4 numbers a second), so that calls are out whenever a fault strikes. The first
# campaign is sent under the Redis and PostgreSQL outages; the second when the first may be
# over, for its worker to be killed.
CAMPAIGN_SIZE = 240
KILLED_CAMPAIGN_SIZE = 120
SEND_ANSWER_DELAY_MS = 1000
REDIS_DOWN_S = 5
POSTGRES_DOWN_S = 6
PROVIDER_DOWN_S = 15
PASSWORD = "outage-Pass-2026"


def migrate(env: dict[str, str]) -> None:
    """The guide's first step, on the private database."""
    done = subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def reconnect() -> None:
    """This process's connection after the server restarted: a new one."""
    connection.close()


def campaign_of(template: Any, prefix: str, size: int) -> int:
    from sms import services as sms

    lines = "\n".join(f"{prefix}{n:04d},{n:06d}" for n in range(size))
    preview = sms.preview_recipients(template, lines, [""])
    assert not preview.bad, preview.bad[:5]
    return int(sms.store_recipients(template, preview.good).pk)


def prepare_data(provider: Any, deployment: Deployment) -> None:
    """A staff member with an API token, the products, an approved SMS template and two
    campaigns (the first queued, the second queued when it is sent)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from backoffice.security.roles import setup_roles
    from sms import rules
    from sms import services as sms
    from tests.sms.conftest import DRAFTS, review, sandbox_settings
    from topup import services as topup
    from topup.demo import load_products

    setup_roles()
    user = get_user_model().objects.create_user("merchant", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Top-up operators"))
    _token, deployment.api_key = topup.create_token(
        user=user, name="outage", scopes=["orders:write", "orders:read"])
    load_products()
    sandbox_settings(provider, general=100_000)
    template = review(provider, sms.create_template(rules.TemplateDraft(**DRAFTS["code"])))
    deployment.campaign_id = campaign_of(template, "1370013", CAMPAIGN_SIZE)
    deployment.killed_campaign_id = campaign_of(template, "1370024", KILLED_CAMPAIGN_SIZE)
    provider.control("POST", "/topup/settings", {
        "callback_url": deployment.url("/api/topup/callback/"), "progress_delay_s": 1,
        "balance": 1_000_000}).raise_for_status()
    slow_sms_answers(provider)


def slow_sms_answers(provider: Any) -> None:
    provider.add_fault(service="sms", path="^/api/messages$", method="POST", action="delay",
                       delay_ms=SEND_ANSWER_DELAY_MS, when="after")


def send_campaign(deployment: Deployment, campaign_id: int) -> None:
    """What confirming it does: queued, and its task goes to the (private) broker."""
    from django.utils import timezone

    from backoffice.celery import app
    from sms.models import Campaign, CampaignState

    Campaign.objects.filter(pk=campaign_id).update(state=CampaignState.QUEUED,
                                                   confirmed_at=timezone.now())
    with app.connection_for_write(deployment.redis.url) as broker:
        app.send_task("sms.tasks.send_campaign", args=[campaign_id], connection=broker)
    deployment.note(f"campaign {campaign_id} sent")


@contextmanager
def explained(deployment: Deployment) -> Iterator[None]:
    """On any failure, the timeline and each process's errors and last lines go to the
    test's output (pytest shows it with the failure, in the CI log)."""
    try:
        yield
    except BaseException:
        print("\n" + deployment.diagnosis())
        raise


@pytest.fixture
def deployment(tmp_path: Path, provider, django_db_blocker) -> Iterator[Deployment]:
    need(None if shutil.which("redis-server") else "redis-server is not installed")
    postgres = PrivatePostgres()
    need(None if postgres.binaries else "PostgreSQL's server is not installed")
    if os.geteuid() == 0:
        need(None if shutil.which("runuser") else "runuser is needed to run PostgreSQL as root")
    redis = PrivateRedis(tmp_path / "redis")
    redis.start()
    postgres.start()
    postgres.create_database()
    info = provider.info
    web_port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "PROMETHEUS_MULTIPROC_DIR"}} | {
        "DJANGO_SETTINGS_MODULE": "backoffice.settings", "PYTHONUNBUFFERED": "1",
        "DATABASE_URL": postgres.url, "REDIS_URL": redis.url,
        "SECRET_KEY": "outage-test-secret-key", "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "VAR_DIR": str(tmp_path / "var"),
        "GUNICORN_BIND": f"127.0.0.1:{web_port}", "GUNICORN_WORKERS": "2",
        "METRICS_TOKEN": "scrape", "API_TOKEN_RATE_PER_MINUTE": "100000",
        "TOPUP_CALLBACK_ALLOWED_IPS": "127.0.0.1",
        # Our own polling settles what a callback lost in an outage did not, within the test;
        # an order the provider says it never got is charged again 20 s after (not 120 s).
        "TOPUP_FIRST_CHECK_S": "10", "TOPUP_STALE_CREATED_S": "10",
        "TOPUP_STALE_SUBMISSION_S": "20", "TOPUP_NOT_FOUND_GRACE_S": "20",
        "SMS_API_URL": info["sms_api_url"], "SMS_TOKEN": info["sms"]["token"],
        "TRAFFIC_URL": info["traffic_url"], "TOPUP_APPKEY": info["topup"]["appkey"],
        "TOPUP_APPSECRET": info["topup"]["appsecret"],
    }
    deployment = Deployment(env, tmp_path, web_port, redis, postgres, provider)
    saved = dict(connection.settings_dict)
    try:
        with explained(deployment):
            migrate(env)
            with django_db_blocker.unblock():
                connection.close()
                connection.settings_dict.update(NAME=postgres.database, HOST="127.0.0.1",
                                                PORT=str(postgres.port), USER="postgres",
                                                PASSWORD="")
                prepare_data(provider, deployment)
                deployment.web()
                for name in WORKERS:
                    deployment.worker(name)
                for name in BEATS:
                    deployment.beat(name)
                wait_until(lambda: requests.get(deployment.url("/health"), timeout=5).ok, 120,
                           "web")
                for name in WORKERS:
                    wait_until(partial(deployment.started, name), 120, f"{name} ready")
                deployment.supervise()
                deployment.note("deployment up")
                yield deployment
    finally:
        deployment.stop_all()
        with django_db_blocker.unblock():
            connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
        postgres.remove()
        redis.stop()


def readiness(deployment: Deployment) -> tuple[int, dict[str, Any]]:
    answer = requests.get(deployment.url("/ready"), timeout=10,
                          headers={"Authorization": "Bearer scrape"})
    return answer.status_code, answer.json()


def charged_custnos(deployment: Deployment) -> set[str]:
    return {order["custno"] for order in deployment.charged()}


def restart_redis(deployment: Deployment, load: OrderLoad) -> Recovery:
    """Redis dies and comes back empty: orders are still taken (2xx), and charged after."""
    recovery = Recovery("Redis down")
    deployment.note("Redis killed")
    deployment.redis.stop()
    down_at = time.monotonic()
    status, ready = readiness(deployment)
    deployment.note(f"/ready without Redis: {status} {ready.get('failed')} "
                    f"degraded {ready.get('degraded')}")
    assert status == 200 and {"cache", "broker"} <= set(ready["degraded"]), (status, ready)
    time.sleep(REDIS_DOWN_S)
    wait_until(lambda: load.answered_since(down_at), 30, "an order answered without Redis",
               observed=lambda: load.answers[-3:])
    during = load.answered_since(down_at)
    assert all(answer.status in (200, 201) for answer in during), during
    deployment.redis.start()
    recovery.since = time.monotonic()
    deployment.note(f"Redis back ({len(during)} orders answered while it was down)")
    placed = load.custnos_placed_since(down_at)
    assert placed, during
    recovery.measure("a new order charged after its return",
                     lambda: load.custnos_placed_since(recovery.since)
                     & charged_custnos(deployment), 120, "a new order to be charged",
                     observed=lambda: load.answered_since(recovery.since)[-3:])
    recovery.measure("orders placed while it was down, charged",
                     lambda: placed <= charged_custnos(deployment), 120,
                     "orders placed without Redis to be charged",
                     observed=lambda: sorted(placed - charged_custnos(deployment)))
    return recovery


def restart_postgres(deployment: Deployment, load: OrderLoad) -> Recovery:
    """PostgreSQL restarts: 503 with Retry-After meanwhile, a callback not stored."""
    recovery = Recovery("PostgreSQL down")
    deployment.note("PostgreSQL stopped (fast shutdown)")
    deployment.postgres.stop()
    down_at = time.monotonic()
    probe = requests.post(deployment.url("/api/topup/callback/"), timeout=30,
                          json={"custno": "probe-while-down", "code": "200", "info": "",
                                "orderno": "1", "sign": "0"})
    assert probe.status_code == 503 and probe.headers.get("Retry-After"), \
        (probe.status_code, dict(probe.headers), probe.text[:500])
    status, ready = readiness(deployment)
    deployment.note(f"/ready without PostgreSQL: {status} failed {ready.get('failed')}")
    assert status == 503 and ready["failed"] == ["database"], (status, ready)
    wait_until(lambda: any(answer.status == 503 for answer in load.answered_since(down_at)),
               30, "an order answered 503 while PostgreSQL is down",
               observed=lambda: load.answered_since(down_at)[-3:])
    time.sleep(max(0.0, POSTGRES_DOWN_S - (time.monotonic() - down_at)))
    deployment.postgres.start()
    up_at = recovery.since = time.monotonic()
    deployment.note("PostgreSQL back")
    recovery.measure("API answers 2xx again",
                     lambda: any(answer.status in (200, 201)
                                 for answer in load.answered_since(up_at)), 60,
                     "the API to answer 2xx", observed=lambda: load.answered_since(up_at)[-3:])
    recovery.measure("a new order charged",
                     lambda: load.custnos_placed_since(up_at) & charged_custnos(deployment), 120,
                     "a new order to be charged",
                     observed=lambda: load.answered_since(up_at)[-3:])
    reconnect()
    return recovery


def kill_campaign_worker(deployment: Deployment) -> Recovery:
    """The worker sending a campaign is SIGKILLed; another one takes the campaign over."""
    from sms.models import Campaign, Message, MessageStatus

    recovery = Recovery("a worker killed")
    campaign_id = deployment.killed_campaign_id
    send_campaign(deployment, campaign_id)

    def sent_of_campaign() -> set[str]:
        return {number for number in deployment.numbers_sent() if number.startswith("1370024")}

    wait_until(lambda: len(sent_of_campaign()) >= 8, 90, "the second campaign to send",
               observed=lambda: Campaign.objects.filter(pk=campaign_id).values().first())

    def the_runner() -> str | None:
        running = deployment.workers_running(campaign_id)
        return running[0] if len(running) == 1 else None

    victim, _seconds = wait_for(the_runner, 60, "one worker to run the second campaign",
                                observed=partial(deployment.workers_running, campaign_id))
    owner = Campaign.objects.get(pk=campaign_id).lease_owner

    def in_doubt() -> set[str]:
        marked = set(Message.objects.filter(status=MessageStatus.SUBMITTING)
                     .values_list("mobile", flat=True))
        return marked - set(deployment.numbers_sent())

    recovery.since, tries = deployment.kill_between_calls(victim, in_doubt)
    sent_before = len(sent_of_campaign())
    deployment.note(f"{victim} killed (freezes needed: {tries}; {sent_before} of "
                    f"{KILLED_CAMPAIGN_SIZE} numbers sent)")
    assert sent_before < KILLED_CAMPAIGN_SIZE, "the campaign ended before its worker was killed"

    def taken_over_and_sending() -> bool:
        lease = Campaign.objects.values_list("lease_owner", flat=True).get(pk=campaign_id)
        return lease not in ("", owner) and len(sent_of_campaign()) > sent_before

    # Counted from the last freeze: from then on the worker did nothing.
    resumed_s = recovery.measure(
        "campaign sending again", taken_over_and_sending, 90,
        "another worker to take the campaign over and send",
        observed=lambda: (len(sent_of_campaign()), Campaign.objects.filter(pk=campaign_id)
                          .values("state", "lease_owner", "lease_expires_at").first()))
    deployment.note(f"campaign {campaign_id} sending again on another worker")
    assert resumed_s < 30, f"the campaign went on {resumed_s:.1f} s after its worker died"
    deployment.worker(victim)  # its supervisor starts it again
    return recovery


def kill_active_beat(deployment: Deployment) -> Recovery:
    """The beat holding the lease is SIGKILLed; the standby takes over."""
    from backoffice.models import SchedulerLease
    from backoffice.operations import beat

    recovery = Recovery("the active beat killed")

    def lease() -> tuple[str, Any]:
        row = SchedulerLease.objects.get(name=beat.LEASE_NAME)
        return row.holder, row.expires_at

    def beat_holding() -> str | None:
        holder, _expires = lease()
        return next((name for name in BEATS if name in deployment.processes
                     and holder.endswith(f":{deployment.processes[name].pid}")), None)

    active, _seconds = wait_for(beat_holding, 90, "a running beat to hold the lease",
                                observed=lease)
    standby = next(name for name in BEATS if name != active)
    standby_pid = deployment.processes[standby].pid
    deployment.kill(active)
    recovery.since = time.monotonic()
    deployment.note(f"{active} (active) killed")
    recovery.measure("standby scheduling", lambda: lease()[0].endswith(f":{standby_pid}"), 90,
                     "the standby beat to take over", observed=lease)
    deployment.note(f"{standby} holds the lease")
    deployment.beat(active)
    return recovery


def take_the_provider_down(deployment: Deployment, load: OrderLoad) -> Recovery:
    """The provider answers 503 to every top-up and SMS call, then comes back: orders are
    still taken, and charged once it is back."""
    recovery = Recovery("the provider down")
    provider = deployment.sandbox
    for service in ("topup", "sms"):
        provider.add_fault(service=service, path=".", action="status", status=503,
                           body={"error": "unavailable"})
    down_at = time.monotonic()
    deployment.note(f"provider down (every top-up and SMS call answered 503) for "
                    f"{PROVIDER_DOWN_S} s")
    time.sleep(PROVIDER_DOWN_S)
    during = load.answered_since(down_at)
    placed = load.custnos_placed_since(down_at)
    assert placed and all(answer.status in (200, 201) for answer in during), during
    status, ready = readiness(deployment)
    deployment.note(f"/ready with the provider down: {status} failed {ready.get('failed')} "
                    f"degraded {ready.get('degraded')}")
    assert status == 200, (status, ready)  # every host is as affected: none is taken out
    assert not placed & charged_custnos(deployment), "charged while the provider was down"
    provider.control("DELETE", "/faults").raise_for_status()
    slow_sms_answers(provider)
    up_at = recovery.since = time.monotonic()
    deployment.note("provider back")
    recovery.measure("a new order charged after its return",
                     lambda: load.custnos_placed_since(up_at) & charged_custnos(deployment), 120,
                     "a new order to be charged",
                     observed=lambda: load.answered_since(up_at)[-3:])
    recovery.measure("orders placed while it was down, charged",
                     lambda: placed <= charged_custnos(deployment), 120,
                     "orders placed while the provider was down to be charged",
                     observed=lambda: sorted(placed - charged_custnos(deployment)))
    return recovery


def test_outages_lose_nothing_double_nothing_and_answer_503_or_2xx(deployment: Deployment):
    with explained(deployment):
        outages_under_load(deployment)


def outages_under_load(deployment: Deployment) -> None:
    from backoffice.models import ScheduledRun
    from sms.models import Campaign, CampaignState
    from topup.models import FINAL_STATES, CallbackReceipt, Order

    load = OrderLoad(deployment, deployment.api_key)
    send_campaign(deployment, deployment.campaign_id)
    load.start()
    wait_until(lambda: len(deployment.numbers_sent()) >= 5, 90, "the campaign to send")
    wait_until(lambda: len(deployment.charged()) >= 3, 90, "the first orders to be charged",
               observed=lambda: load.answers[-3:])

    recoveries = [restart_redis(deployment, load), restart_postgres(deployment, load),
                  kill_campaign_worker(deployment), kill_active_beat(deployment)]
    campaigns = (deployment.campaign_id, deployment.killed_campaign_id)
    wait_until(lambda: set(Campaign.objects.filter(pk__in=campaigns)
                           .values_list("state", flat=True)) == {CampaignState.DONE}, 180,
               "the campaigns to finish", every_s=1,
               observed=lambda: list(Campaign.objects.filter(pk__in=campaigns).values(
                   "pk", "state", "accepted_count", "halt_code", "lease_expires_at")))
    deployment.note("campaigns done")
    recoveries.append(take_the_provider_down(deployment, load))

    # --- everything settles ---------------------------------------------------------------
    load.stop()
    custnos = load.settle_every_key(timeout_s=120)
    deployment.note(f"every key answered 2xx ({len(custnos)} orders)")
    wait_until(lambda: not Order.objects.exclude(state__in=FINAL_STATES).exists(), 180,
               "every order to be final", every_s=1,
               observed=lambda: list(Order.objects.exclude(state__in=FINAL_STATES)
                                     .values("custno", "state", "next_check_at")[:10]))
    wait_until(lambda: not CallbackReceipt.objects.filter(sign_valid__isnull=True).exists()
               and not CallbackReceipt.objects.filter(sign_valid=True, processed=False).exists(),
               120, "every receipt to be judged and applied", every_s=1,
               observed=lambda: list(CallbackReceipt.objects.filter(processed=False)
                                     .values("pk", "custno", "outcome", "error")[:10]))
    deployment.note("settled")

    print("\nrecovery times observed:\n  " + "\n  ".join(r.line() for r in recoveries))
    print("processes restarted by their supervisor (exited on their own): "
          + (", ".join(f"{name} at {at:.0f} s" for name, at in deployment.restarts) or "none"))

    # Every answer 2xx or a 503 with Retry-After.
    odd = [a for a in load.answers
           if not (a.status in (200, 201) or (a.status == 503 and a.retry_after))]
    assert not odd, odd[:10]
    # One order per key, charged once at the provider, all final and successful.
    per_key: dict[str, str] = {}
    for answer in load.answers:
        if answer.custno:
            assert per_key.setdefault(answer.key, answer.custno) == answer.custno, answer
    assert per_key == custnos
    ours = set(Order.objects.values_list("custno", flat=True))
    assert ours == set(custnos.values())
    at_provider = Counter(order["custno"] for order in deployment.charged())
    assert set(at_provider) == ours, (set(at_provider) ^ ours)
    assert set(at_provider.values()) == {1}, [c for c, n in at_provider.items() if n > 1]
    assert Counter(Order.objects.values_list("state", flat=True)) == {"success": len(ours)}
    # The provider's callbacks were answered 200, or 503 during the database's outage. The
    # sandbox gives up reading after 3 s (and calls again a minute later): on a loaded
    # machine a callback may wait that long for one of the two gunicorn workers, which is
    # slowness, not a wrong answer; any other failure to answer is one.
    calls = deployment.callback_calls()
    answered = Counter(call["status"] for call in calls if call["status"] is not None)
    unanswered = [call for call in calls if call["status"] is None]
    deployment.note(f"callbacks answered {dict(answered)}, timed out {len(unanswered)}")
    assert set(answered) <= {200, 503}, answered
    assert all("ReadTimeout" in call["error"] for call in unanswered), unanswered[:5]
    assert not CallbackReceipt.objects.filter(custno="probe-while-down").exists()
    # Every number sent once.
    sent = Counter(deployment.numbers_sent())
    assert len(sent) == CAMPAIGN_SIZE + KILLED_CAMPAIGN_SIZE, len(sent)
    assert set(sent.values()) == {1}, [number for number, n in sent.items() if n > 1]
    for campaign_id, size in ((deployment.campaign_id, CAMPAIGN_SIZE),
                              (deployment.killed_campaign_id, KILLED_CAMPAIGN_SIZE)):
        assert Campaign.objects.get(pk=campaign_id).accepted_count == size
    # Every scheduled job once per due time: each send logged by a beat had its own claim
    # (claims are unique per job and due time), no job was sent twice within half its
    # interval, and a claim without its send is the killed beat's (at most one) or one whose
    # write the beat saw fail (the database went away mid-write; logged).
    from backoffice.celery import collect_beat_schedule

    schedule = collect_beat_schedule()
    sends = deployment.beat_sends(BEATS)
    claims = Counter(ScheduledRun.objects.values_list("job", flat=True))
    sent_claims = Counter(ScheduledRun.objects.filter(sent_at__isnull=False)
                          .values_list("job", flat=True))
    assert sends, "no beat sent anything"
    for job, times in sends.items():
        assert sent_claims[job] <= len(times) <= claims[job], (job, len(times), claims[job])
        every = schedule[job]["schedule"]
        if isinstance(every, float):
            gaps = [later - earlier for earlier, later in zip(times, times[1:], strict=False)]
            assert all(gap >= timedelta(seconds=every / 2) for gap in gaps), (job, times)
    unsent = claims - sent_claims
    excused = Counter(deployment.beat_write_failures(BEATS))
    assert sum((unsent - excused).values()) <= 1, (unsent, excused)
