"""`/metrics`: Prometheus text behind a bearer token (404 when METRICS_TOKEN is unset, 401
without the token), counting provider calls with their latency, Celery task outcomes, and
reading stored state (orders, callbacks, messages, uploads) and the queue depth at scrape."""

from __future__ import annotations

import pytest
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from backoffice.operations import metrics
from tests.services_support import some_service

pytestmark = pytest.mark.django_db

TOKEN = "scrape-secret"


@pytest.fixture
def token(settings):
    settings.METRICS_TOKEN = TOKEN


def scrape(client: Client) -> dict[str, dict[tuple, float]]:
    answer = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"].startswith("text/plain; version=")
    samples: dict[str, dict[tuple, float]] = {}
    for family in text_string_to_metric_families(answer.content.decode()):
        for sample in family.samples:
            samples.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def test_metrics_do_not_exist_without_a_token(client: Client, settings):
    settings.METRICS_TOKEN = None
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 404


@pytest.mark.parametrize("header", [None, "Bearer wrong", f"Basic {TOKEN}", "Bearer"])
def test_metrics_without_the_right_token_are_refused(client: Client, token, header):
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    answer = client.get("/metrics", **extra)
    assert answer.status_code == 401
    assert answer["WWW-Authenticate"].startswith("Bearer")


def test_provider_calls_are_counted_by_service_endpoint_and_outcome(client: Client, token,
                                                                    provider):
    from sms import services as sms

    before = scrape(client).get("backoffice_provider_calls_total", {})
    sms.refresh_quota()
    after = scrape(client)
    calls = {labels: value - before.get(labels, 0)
             for labels, value in after["backoffice_provider_calls_total"].items()}
    sms_ok = {labels: n for labels, n in calls.items()
              if dict(labels)["service"] == "sms" and dict(labels)["outcome"] == "ok" and n}
    assert sms_ok, calls
    assert any(dict(labels)["endpoint"].startswith("GET /") or
               dict(labels)["endpoint"].startswith("POST /") for labels in sms_ok)
    assert any(name == "backoffice_provider_call_seconds_count" for name in after)


def test_task_outcomes_and_durations_are_counted():
    metrics.task_started("t-1")
    metrics.task_finished("t-1", "sms.tasks.example", "success")
    metrics.task_finished("t-2", "sms.tasks.example", "failure")
    assert metrics.TASKS.labels("sms.tasks.example", "success")._value.get() >= 1
    assert metrics.TASKS.labels("sms.tasks.example", "failure")._value.get() >= 1
    assert metrics.TASK_SECONDS.labels("sms.tasks.example")._sum.get() >= 0


def test_stored_state_and_queue_depth_are_read_at_scrape(client: Client, token):
    from storage.models import UploadTask

    UploadTask.objects.create(service=some_service(), source="", original_name="a",
                              target_path="/a", size=1,
                              state="failed", direct=True)
    samples = scrape(client)
    assert samples["backoffice_storage_uploads"][(("state", "failed"),)] == 1
    assert samples["backoffice_queue_depth"][(("queue", "celery"),)] >= 0


def test_endpoints_of_file_services_do_not_carry_file_paths():
    assert metrics.endpoint_of("storage", "PUT", "/bucket/a/b.jpg",
                               {"x-svc-multi-stage": "upload"}) == "PUT multipart-upload"
    assert metrics.endpoint_of("storage", "HEAD", "/bucket/a/b.jpg", {}) == "HEAD"
    assert metrics.endpoint_of("topup", "POST", "/api/order/123?x=1", {}) == "POST /api/order/:n"
