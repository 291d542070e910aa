"""One size format everywhere: bytes below 1 KiB, then one decimal of a binary unit, in the
reader's language, on every page that shows a size (file page, listing, uploads, media jobs)."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from django.utils import translation

from console.models import Service
from media.models import JobKind, JobState, ProcessingJob
from storage.services import bytes_text, size_text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("size", "text"), [
    (0, "0 bytes"), (1, "1 byte"), (1023, "1,023 bytes"), (1024, "1.0 KiB"),
    (1536, "1.5 KiB"), (1024 * 1024 - 1, "1.0 MiB"), (12 * 1024 * 1024, "12.0 MiB"),
    (5 * 1024 ** 4, "5.0 TiB"), (3 * 1024 ** 5, "3072.0 TiB"),
])
def test_sizes_read_as_bytes_then_binary_units(size, text):
    with translation.override("en"):
        assert size_text(size) == text


def test_sizes_read_in_chinese():
    with translation.override("zh-hans"):
        assert size_text(1) == "1 字节"
        assert size_text(700) == "700 字节"
        assert size_text(1536) == "1.5 KiB"
        assert bytes_text(12345) == "12345 字节"  # the locale groups no digits


def test_a_missing_size_is_empty():
    assert size_text(None) == ""


def test_the_file_page_and_the_listing_use_the_one_format(manager_client, provider,
                                                          sandbox_storage):
    sandbox_storage.upload("/docs/big.bin", io.BytesIO(b"x" * 1536))
    sandbox_storage.upload("/docs/small.txt", io.BytesIO(b"tiny"))
    page = manager_client.get(reverse("storage:file") + "?path=/docs/big.bin").content.decode()
    assert '<td data-field="size">1.5 KiB (1,536 bytes)</td>' in page
    listing = manager_client.get(reverse("storage:index") + "?path=/docs").content.decode()
    assert "1.5 KiB" in listing and "4 bytes" in listing
    # Sizes as words ("1.5 KB") nowhere; a random token may hold the letters KB anywhere.
    assert not re.search(r"\d KB\b", listing)


def test_a_snapshot_jobs_image_size_uses_the_one_format(manager_client):
    # A job belongs to a storage service (PostgreSQL enforces it; SQLite let it pass).
    service = Service.objects.create(name="media-bucket")
    job = ProcessingJob.objects.create(
        service=service, kind=JobKind.SNAPSHOT, state=JobState.SUCCEEDED, sources=["/v.mp4"],
        save_as="/s.jpg", parameters={"point": "00:00:01"},
        answer={"save_as": "/s.jpg", "content_type": "image/jpeg", "content_length": 2048})
    page = manager_client.get(reverse("media:job_detail", args=[job.pk])).content.decode()
    assert "/s.jpg · image/jpeg · 2.0 KiB" in page
