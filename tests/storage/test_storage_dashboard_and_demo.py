"""The dashboard tile's figures and the demo data for `make run`."""

from __future__ import annotations

import io
import time

import pytest
from django.core.cache import cache
from PIL import Image

from storage import demo
from storage.dashboard import figures
from storage.models import StoredFile, UploadTask

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_the_tile_shows_bucket_usage_and_upload_counts(provider, sandbox_storage, manager,
                                                       media_root):
    sandbox_storage.upload("/u/a.bin", io.BytesIO(b"x" * 2048))
    from tests.storage.conftest import queue_upload

    failed = queue_upload(b"f", "/u/f.bin")
    UploadTask.objects.filter(pk=failed.pk).update(state="failed")
    shown = {f.label: f.value for f in figures(manager)}
    assert shown["Bucket usage"] == "2.0 KiB"
    assert shown["Uploads in progress"] == "0" and shown["Uploads failed"] == "1"
    assert shown["Mirror refreshed"] == "never"


def test_usage_is_cached_so_the_dashboard_does_not_call_the_provider_each_time(
    provider, sandbox_storage, manager
):
    assert {f.label: f.value for f in figures(manager)}["Bucket usage"] == "0 bytes"
    sandbox_storage.upload("/u/b.bin", io.BytesIO(b"x" * 5000))
    assert {f.label: f.value for f in figures(manager)}["Bucket usage"] == "0 bytes"


def test_a_provider_that_does_not_answer_leaves_the_dashboard_fast(provider, manager):
    provider.add_fault(service="storage", path="usage", action="status", status=503,
                       body={"code": 50300001, "msg": "unavailable", "id": "d"})
    started = time.monotonic()
    assert {f.label: f.value for f in figures(manager)}["Bucket usage"] == "unavailable"
    remembered = {f.label: f.value for f in figures(manager)}
    assert remembered["Bucket usage"] == "unavailable"
    assert time.monotonic() - started < 5
    faults = provider.control("GET", "/faults").json()["faults"]
    assert faults[0]["hits"] == 1


def test_the_dashboard_tile_is_rendered_for_content_managers_and_auditors(
    provider, client, manager, auditor, make_user
):
    client.force_login(manager)
    assert "Bucket usage" in client.get("/").content.decode()
    client.force_login(auditor)
    assert "Bucket usage" in client.get("/").content.decode()
    sms_only = make_user("sms-only", "SMS operators")
    assert figures(sms_only) == []


def test_the_demo_data_is_loaded_once_through_the_resumable_path(provider, sandbox_storage,
                                                                  media_root):
    out = io.StringIO()
    demo.load(out)
    log = out.getvalue()
    assert "uploaded /demo/videos/sample-12MiB.bin (12582912 bytes, in parts)" in log
    assert sandbox_storage.head("/demo/videos/sample-12MiB.bin").size == demo.LARGE_SIZE
    image = io.BytesIO()
    sandbox_storage.download("/demo/photos/2024/sunrise.jpg", image)
    assert Image.open(io.BytesIO(image.getvalue())).size == (960, 640)
    assert StoredFile.objects.filter(path="/demo/docs/readme.txt").exists()
    assert list((media_root / "uploads").iterdir()) == []

    again = io.StringIO()
    demo.load(again)
    assert "uploaded" not in again.getvalue()
    assert UploadTask.objects.count() == 6


def test_the_demo_data_is_skipped_when_storage_is_not_configured(settings):
    settings.PROVIDER = {**settings.PROVIDER, "storage": {"url": "", "bucket": "",
                                                          "operator": "", "password": "",
                                                          "signature": "current"}}
    out = io.StringIO()
    demo.load(out)
    assert "object storage skipped" in out.getvalue()
