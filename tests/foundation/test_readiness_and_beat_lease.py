"""Readiness (`/ready`) and the one-active-beat lease: `/health` needs nothing; `/ready` names
every check that fails (503) and answers 200 once a worker and the beat are alive, its details
only to a caller holding the metrics token; the lease
goes to one beat at a time and passes on when its holder stops renewing; two real beat
processes: one schedules, the other stands by and takes over when the first is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from backoffice.models import ProcessHeartbeat, SchedulerLease
from backoffice.operations import beat, heartbeats
from tests.sandbox_process import ROOT

METRICS_TOKEN = "scrape-token"


@pytest.fixture
def operator(client: Client, settings) -> Client:
    """A caller holding the metrics token: `/ready` shows it every check with its detail."""
    settings.METRICS_TOKEN = METRICS_TOKEN
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {METRICS_TOKEN}"
    return client


@pytest.mark.django_db
def test_health_answers_without_touching_the_database(client: Client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/health").json() == {"ok": True}


@pytest.mark.django_db
def test_ready_is_503_naming_the_missing_worker_and_beat_then_200_once_they_beat(
        operator: Client):
    client = operator
    answer = client.get("/ready")
    assert answer.status_code == 503
    body = answer.json()
    assert body["ready"] is False and body["failed"] == ["worker", "beat"]
    assert body["checks"]["database"]["ok"] and body["checks"]["cache"]["ok"]
    assert body["checks"]["broker"]["ok"]
    assert body["checks"]["worker"]["detail"] == "no heartbeat yet"
    heartbeats.beat("worker", "host-a:1")
    heartbeats.beat("beat", "host-b:2")
    answer = client.get("/ready")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["failed"] == []


@pytest.mark.django_db
def test_a_heartbeat_older_than_a_minute_makes_ready_fail(operator: Client):
    client = operator
    heartbeats.beat("worker", "host-a:1")
    heartbeats.beat("beat", "host-b:2")
    ProcessHeartbeat.objects.filter(kind="worker").update(
        seen_at=timezone.now() - timedelta(seconds=61))
    body = client.get("/ready").json()
    assert body["failed"] == ["worker"] and "61 s ago" in body["checks"]["worker"]["detail"]


@pytest.mark.django_db
def test_a_provider_whose_last_contact_failed_is_named_degraded_and_the_host_stays_ready(
        operator: Client, settings):
    client = operator
    from backoffice.operations.provider import record_contact

    settings.PROVIDER = {**settings.PROVIDER, "sms": {"api_url": "http://127.0.0.1:9",
                                                      "token": "t"}}
    heartbeats.beat("worker")
    heartbeats.beat("beat")
    record_contact("sms", False, "connection refused")
    answer = client.get("/ready")
    body = answer.json()
    assert answer.status_code == 200
    assert body["failed"] == [] and body["degraded"] == ["provider.sms"]
    assert "connection refused" in body["checks"]["provider.sms"]["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("token_set", ["", METRICS_TOKEN])
@pytest.mark.parametrize("authorization", [None, "Bearer wrong", "Token scrape-token"])
def test_without_the_metrics_token_ready_says_only_pass_or_fail(
        client: Client, settings, token_set, authorization):
    from backoffice.operations.provider import record_contact

    settings.METRICS_TOKEN = token_set
    settings.PROVIDER = {**settings.PROVIDER, "sms": {"api_url": "http://127.0.0.1:9",
                                                      "token": "t"}}
    record_contact("sms", False, "ConnectionError: 10.0.0.7:443 refused")
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}
    answer = client.get("/ready", **headers)
    assert answer.status_code == 503 and answer.json() == {"ready": False}
    heartbeats.beat("worker")
    heartbeats.beat("beat")
    record_contact("sms", True)
    answer = client.get("/ready", **headers)
    assert answer.status_code == 200 and answer.json() == {"ready": True}


@pytest.mark.django_db
def test_the_worker_heartbeat_thread_writes_and_removes_its_heartbeat():
    thread = heartbeats.HeartbeatThread("worker", every_s=0.05)
    thread.start()
    deadline = time.monotonic() + 5
    while heartbeats.last_seen("worker") is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert heartbeats.last_seen("worker") is not None
    thread.stop()
    assert heartbeats.last_seen("worker") is None


@pytest.mark.django_db
def test_the_lease_goes_to_one_holder_until_it_expires():
    assert beat.take_lease("a") and beat.take_lease("a")  # taken, then renewed
    assert not beat.take_lease("b")
    SchedulerLease.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert beat.take_lease("b") and not beat.take_lease("a")
    beat.release_lease("b")
    assert beat.take_lease("a")


def _start_beat(env: dict[str, str], name: str, log_dir) -> subprocess.Popen:
    log = open(log_dir / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "backoffice", "beat", "--loglevel", "INFO",
         "--pidfile", ""],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def _holder() -> str:
    lease = SchedulerLease.objects.filter(name=beat.LEASE_NAME).first()
    return lease.holder if lease else ""


@pytest.mark.django_db(transaction=True)
def test_two_real_beats_one_stands_by_and_takes_over_within_a_minute(tmp_path, postgres,
                                                                     redis_url):
    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/"
           f"{db['NAME']}", "REDIS_URL": redis_url, "SECRET_KEY": "test-only",
           "VAR_DIR": str(tmp_path / "var")}
    first = _start_beat(env, "first", tmp_path)
    second = None
    try:
        deadline = time.monotonic() + 60
        while not _holder() and time.monotonic() < deadline:
            time.sleep(0.5)
        active = _holder()
        assert active.endswith(f":{first.pid}"), (tmp_path / "first.log").read_text()
        second = _start_beat(env, "second", tmp_path)
        time.sleep(8)
        assert _holder() == active  # the second stands by
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
        killed_at = time.monotonic()
        while _holder() in (active, "") and time.monotonic() - killed_at < 60:
            time.sleep(0.5)
        took_over = time.monotonic() - killed_at
        assert _holder().endswith(f":{second.pid}"), (tmp_path / "second.log").read_text()
        assert took_over < 60
        last_seen = heartbeats.last_seen("beat")
        assert last_seen is not None and last_seen > timezone.now() - timedelta(seconds=10)
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:  # a loaded machine: do not leave it behind
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(10)


@pytest.mark.django_db(transaction=True)
def test_a_database_outage_is_named_alone_within_half_a_second(operator: Client, postgres):
    from tests.database_outage import database_unreachable

    heartbeats.beat("worker", "host-a:1")
    heartbeats.beat("beat", "host-b:2")
    with database_unreachable():
        started = time.monotonic()
        answer = operator.get("/ready")
        assert time.monotonic() - started < 0.5
    body = answer.json()
    assert answer.status_code == 503 and body["failed"] == ["database"], body
    # What needs the database is not checked, not reported as failing: the cause stands alone.
    for name in ("worker", "beat"):
        assert body["checks"][name] == {"ok": None,
                                        "detail": "not checked: the database is unreachable"}
    assert body["checks"]["broker"]["ok"] is True
