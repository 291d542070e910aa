"""Without Redis the product degrades and never breaks (issue 28): orders are placed through
the merchant API (its rate limit allowed, with a warning), genuine callbacks are stored and
acknowledged (the shared token read from its row), the top-up pages answer, queued work waits
for the sweeps, and `/ready` stays 200 naming the cache and the broker as degraded, within
half a second. The Redis is the test's own, stopped by the test; the shared one is untouched.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from kombu import pools as kombu_pools
from rest_framework.test import APIClient

from backoffice.celery import app
from backoffice.operations import heartbeats, once_a_minute
from backoffice.operations.queue import enqueue
from tests.private_services import PrivateRedis
from tests.topup.conftest import CMCC_NUMBER
from topup import services
from topup.models import CallbackReceipt, Order, ReceiptOutcome, TokenState
from topup.services import checking
from topup.services.shared_token import forget_recent, read_snapshot

pytestmark = pytest.mark.django_db
METRICS_TOKEN = "scrape-token"
TOKEN = "CurrentToken0001"


def point_celery_at(url: str) -> None:
    """The Celery app's broker, and its connection pools, at `url` (Celery keeps both pools
    once made: they are dropped so that the next message connects to `url`)."""
    celery: Any = app
    for pool in (celery._pool, celery.amqp._producer_pool):
        if pool is not None:
            pool.force_close_all()
    # Celery takes its producer pool from kombu's registry, keyed by the broker's address: a
    # closed pool left there would be handed out again once the app points back at it.
    kombu_pools.reset()
    celery.conf.broker_url = url
    celery._pool = None
    celery.amqp._producer_pool = None


@pytest.fixture
def private_redis(tmp_path: Path, settings: Any) -> Iterator[PrivateRedis]:
    """Cache and broker on a Redis of this test's, running until the test stops it."""
    server = PrivateRedis(tmp_path / "redis")
    try:
        server.start()
    except FileNotFoundError as missing:
        pytest.skip(str(missing))
    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": server.url,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    # Read before the settings change: Celery loads its configuration from the settings the
    # first time it is asked, so asking afterwards would "restore" the private server.
    previous_broker = app.conf.broker_url
    settings.CELERY_BROKER_URL = server.url
    point_celery_at(server.url)
    once_a_minute.forget()
    forget_recent()
    yield server
    server.stop()
    point_celery_at(previous_broker)
    once_a_minute.forget()


@pytest.fixture
def operator_client(client: Client, settings: Any) -> Client:
    settings.METRICS_TOKEN = METRICS_TOKEN
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {METRICS_TOKEN}"
    return client


def place(client: APIClient, key: str) -> Any:
    return client.post("/api/topup/orders/", {"mobile": CMCC_NUMBER, "product": "CMCC_10"},
                       format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_orders_are_placed_and_repeated_once_while_redis_is_down(
        private_redis, operator, products, caplog, django_capture_on_commit_callbacks):
    _token, key = services.create_token(user=operator, name="ERP",
                                        scopes=["orders:write", "orders:read"])
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert place(api, "before").status_code == 201
    private_redis.stop()
    caplog.set_level(logging.WARNING)
    with django_capture_on_commit_callbacks(execute=True):
        first = place(api, "during")
        again = place(api, "during")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["custno"] == again.json()["custno"]
    assert Order.objects.count() == 2
    # One line for the cache (the rate limit not applied), one for the broker (the submit
    # task not queued: the stale-created sweep sends it): once a minute, not per request.
    messages = [record.getMessage() for record in caplog.records]
    assert sum("cache unavailable" in message for message in messages) == 1, messages
    assert sum("broker unavailable" in message for message in messages) == 1, messages


def sign(code: str, custno: str, info: str, orderno: str) -> str:
    text = f"code{code}custno{custno}info{info}orderno{orderno}token{TOKEN}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def test_a_genuine_callback_is_acknowledged_while_redis_is_down(private_redis, products,
                                                                django_capture_on_commit_callbacks):
    now = timezone.now()
    TokenState.objects.create(pk=1, token=TOKEN, obtained_at=now,
                              expires_at=now + timedelta(hours=24))
    private_redis.stop()
    payload = {"code": "200", "custno": "C0001", "info": "done", "orderno": "P1",
               "sign": sign("200", "C0001", "done", "P1")}
    with django_capture_on_commit_callbacks(execute=True):
        answer = Client().post("/api/topup/callback/", payload, content_type="application/json")
    assert answer.status_code == 200 and answer.json() == {"info": "1"}
    receipt = CallbackReceipt.objects.get()
    assert receipt.sign_valid is True and receipt.outcome == ReceiptOutcome.RECEIVED


def test_the_topup_pages_and_the_510_pause_work_while_redis_is_down(private_redis, make_user):
    staff = Client()
    staff.force_login(make_user("op", "Top-up operators"))
    private_redis.stop()
    assert staff.get("/topup/").status_code == 200
    assert staff.get("/").status_code == 200
    assert checking.seek_paused_until() is None  # no pause known: each order's own backoff


def test_a_task_queued_while_the_broker_is_down_is_logged_not_raised(private_redis, caplog):
    private_redis.stop()
    caplog.set_level(logging.WARNING)
    started = time.monotonic()
    enqueue("topup.tasks.process_callbacks_task", after_commit=False)
    assert time.monotonic() - started < 3
    assert "broker unavailable: topup.tasks.process_callbacks_task" in caplog.text


def test_ready_stays_up_naming_redis_as_degraded_within_half_a_second(
        private_redis, operator_client):
    heartbeats.beat("worker", "host-a:1")
    heartbeats.beat("beat", "host-b:2")
    assert operator_client.get("/ready").status_code == 200
    private_redis.stop()
    started = time.monotonic()
    answer = operator_client.get("/ready")
    assert time.monotonic() - started < 0.5
    body = answer.json()
    assert answer.status_code == 200 and body["ready"] is True, body
    assert body["failed"] == [] and body["degraded"] == ["cache", "broker"]
    assert body["checks"]["cache"]["ok"] is False and body["checks"]["database"]["ok"] is True
    private_redis.start()  # back on the same port: ready and whole again
    body = operator_client.get("/ready").json()
    assert body["degraded"] == [] and body["checks"]["cache"]["ok"] is True


def test_an_unreachable_redis_address_reads_the_token_from_its_row(settings):
    # Nothing listens on port 1: refused at once, as a stopped Redis on its own host.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0"}}
    once_a_minute.forget()
    now = timezone.now()
    TokenState.objects.create(pk=1, token=TOKEN, obtained_at=now,
                              expires_at=now + timedelta(hours=24))
    snapshot = read_snapshot()
    assert snapshot is not None and snapshot.token == TOKEN
    assert checking.seek_paused_until() is None
