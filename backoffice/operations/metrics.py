"""Prometheus metrics: what processes count as they work, and what the database says at scrape.

Counters and histograms (provider calls, Celery tasks) are kept by the process that does the
work. Under gunicorn and Celery's prefork pool each host runs several processes, so with
`PROMETHEUS_MULTIPROC_DIR` set (a directory private to the host, emptied when gunicorn
starts) prometheus-client keeps them in files there, and `/metrics` on any web process of the
host sums every process of that host. Prometheus scrapes each host. Gauges of stored state
(orders by state, callbacks by verdict, messages by status, uploads by state) and the queue
depth are read when scraped, so every host reports the same shared figures.
"""

from __future__ import annotations

import importlib
import os
import re
import time
from collections.abc import Iterator, Mapping

from django.conf import settings
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import REGISTRY, Collector

PROVIDER_CALLS = Counter(
    "backoffice_provider_calls_total", "Calls to the provider, by service, endpoint and outcome",
    ["service", "endpoint", "outcome"])
PROVIDER_SECONDS = Histogram(
    "backoffice_provider_call_seconds", "Latency of provider calls, seconds",
    ["service", "endpoint"])
TASKS = Counter(
    "backoffice_celery_tasks_total", "Celery tasks run, by task and outcome", ["task", "outcome"])
TASK_SECONDS = Histogram(
    "backoffice_celery_task_seconds", "Duration of Celery tasks, seconds", ["task"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600))
ENTRY_FALLBACKS = Counter(
    "backoffice_storage_entry_fallbacks_total",
    "Storage calls moved to smart routing because the chosen line could not be reached, by "
    "service", ["service"])
REFUSED_REQUESTS = Counter(
    "backoffice_refused_requests_total",
    "Requests refused before any work (callbacks from addresses not allowed or too large, "
    "unknown API tokens), by kind; the counts per address are in the admin", ["kind"])

# Services whose URL paths are file paths (unbounded): their endpoint is the method and, for
# resumable uploads, the stage.
FILE_PATH_SERVICES = {"storage", "delivery"}
NUMBER = re.compile(r"\d+")


def endpoint_of(service: str, method: str, path: str,
                headers: Mapping[str, str] | None) -> str:
    if service in FILE_PATH_SERVICES:
        stage = headers.get("x-svc-multi-stage") if headers is not None else None
        return f"{method} multipart-{stage}" if stage else method
    return f"{method} {NUMBER.sub(':n', path.split('?', 1)[0])}"


def outcome_of(status: int | None) -> str:
    if status is None:
        return "transport_error"
    if status >= 500:
        return "server_error"
    if status >= 400:
        return "client_error"
    return "ok"


def observe_provider_call(service: str, endpoint: str, status: int | None, seconds: float) -> None:
    PROVIDER_CALLS.labels(service, endpoint, outcome_of(status)).inc()
    PROVIDER_SECONDS.labels(service, endpoint).observe(seconds)


class _TaskClock:
    """Start times of the tasks running in this process, by task id."""

    started: dict[str, float] = {}


def task_started(task_id: str) -> None:
    _TaskClock.started[task_id] = time.monotonic()


def task_finished(task_id: str, name: str, outcome: str) -> None:
    started = _TaskClock.started.pop(task_id, None)
    TASKS.labels(name, outcome).inc()
    if started is not None:
        TASK_SECONDS.labels(name).observe(time.monotonic() - started)


# (metric, help, label, "<app>.<function of its services>")
STORED_GAUGES = (
    ("backoffice_topup_orders", "Top-up orders by state", "state", "topup.orders_by_state"),
    ("backoffice_topup_callbacks", "Top-up callbacks received, by verdict", "verdict",
     "topup.callbacks_by_verdict"),
    ("backoffice_sms_messages", "Campaign messages by status", "status",
     "sms.messages_by_status"),
    ("backoffice_storage_uploads", "Upload tasks by state", "state", "storage.uploads_by_state"),
    ("backoffice_delivery_certificate_days_left",
     "Days until the certificate bound to each domain expires", "domain",
     "delivery.certificate_days_left"),
)


class StoredStateCollector(Collector):
    """Gauges read from the shared database and broker at each scrape."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        for name, documentation, label, count in STORED_GAUGES:
            app_label, function = count.split(".", 1)
            # Looked up by name, as the dashboard's tiles are: the project package does not
            # import the apps (their services would bring their clients along).
            counts = getattr(importlib.import_module(f"{app_label}.services"), function)()
            yield _gauge(name, documentation, label, counts)
        depth = GaugeMetricFamily("backoffice_queue_depth", "Messages waiting in the broker",
                                  labels=["queue"])
        depth.add_metric(["celery"], queue_depth())
        yield depth


def _gauge(name: str, documentation: str, label: str, counts: dict[str, int]) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, documentation, labels=[label])
    for value, count in sorted(counts.items()):
        family.add_metric([value], count)
    return family


def queue_depth(queue: str = "celery") -> int:
    """Messages waiting: a Redis list, or the files of the embedded file-system broker."""
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        try:
            return int(client.llen(queue))
        finally:
            client.close()
    folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in")
    if not isinstance(folder, str) or not os.path.isdir(folder):
        return 0
    return len(os.listdir(folder))


def render() -> bytes:
    """The text exposition of this host's processes and of the stored state."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        processes = CollectorRegistry()
        multiprocess.MultiProcessCollector(processes)
    else:
        processes = REGISTRY
    stored = CollectorRegistry()
    stored.register(StoredStateCollector())
    return generate_latest(processes) + generate_latest(stored)
