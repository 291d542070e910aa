"""Every fresh reading of the bucket's usage is kept as the day's figure (the hourly job reads
it even when nobody opens the dashboard), and the storage tile charts the last 14 days of it;
the tile's figures link to the pages that list what they count."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from backoffice.ui.tiles import chart_days
from console.services import default_service
from storage import dashboard, services, tasks
from storage.models import UsageSnapshot

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_the_hourly_job_keeps_the_latest_reading_as_the_days_usage(provider, sandbox_storage):
    assert tasks.record_usage() == 0
    sandbox_storage.upload("/u/a.bin", io.BytesIO(b"x" * 3000))
    assert tasks.record_usage() == 3000

    day = UsageSnapshot.objects.get()  # one row a day, overwritten
    assert (day.day, day.used_bytes) == (timezone.localdate(), 3000)


def test_a_cached_reading_is_not_recorded_again(provider, sandbox_storage):
    services.bucket_usage(default_service())
    UsageSnapshot.objects.all().delete()
    services.bucket_usage(default_service())  # from the cache: no reading, nothing to keep
    assert not UsageSnapshot.objects.exists()


def test_the_chart_shows_each_days_usage_and_gaps_for_days_without_a_reading(manager, provider):
    today = timezone.localdate()
    for days_ago, used in ((20, 1), (5, 1000), (1, 3000), (0, 2500)):
        UsageSnapshot.objects.create(service=default_service(),
                                     day=today - timedelta(days=days_ago), used_bytes=used,
                                     taken_at=timezone.now())
    chart = dashboard.chart(manager)

    assert chart is not None and chart.kind == "line"
    assert list(chart.days) == chart_days()
    expected: list[float | None] = [None] * 14
    expected[-6], expected[-2], expected[-1] = 1000, 3000, 2500
    assert list(chart.values) == expected
    assert chart.format_value(3000) == "2.9 KiB"  # the one size format of every page


def test_failed_uploads_link_to_the_upload_list_of_failed_uploads(provider, manager,
                                                                  media_root):
    from tests.storage.conftest import queue_upload

    failed = queue_upload(b"f", "/u/f.bin")
    queue_upload(b"w", "/u/w.bin")  # queued: not in the failed list
    failed.state = "failed"
    failed.save(update_fields=["state"])
    figures = {figure.label: figure for figure in dashboard.figures(manager)}
    client = Client()
    client.force_login(manager)
    assert figures["Uploads failed"].url == "/storage/uploads/?service=demo-bucket&state=failed"
    page = client.get(figures["Uploads failed"].url).content.decode()
    assert "/u/f.bin" in page and "/u/w.bin" not in page
    for figure in figures.values():
        assert client.get(figure.url).status_code == 200, figure.label
