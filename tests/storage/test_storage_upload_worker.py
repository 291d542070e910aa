"""A real Celery worker takes a queued upload (the upload command's, the demo's) and sends it."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from console.services import default_service
from storage import services
from storage.models import UploadTask
from storage.resumable import PART_SIZE
from tests.storage.conftest import md5_of, pseudo_random_bytes

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(predicate, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError("condition not met in time")


def test_the_worker_uploads_a_queued_file_in_parts(manager_client, provider, media_root,
                                                   settings, celery_worker):
    from tests.storage.conftest import queue_upload

    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    data = pseudo_random_bytes(PART_SIZE * 2 + 99)
    pk = queue_upload(data, "/worker/w.bin").pk
    services.enqueue_upload(pk)
    wait_for(lambda: UploadTask.objects.get(pk=pk).state in ("done", "failed"))
    task = UploadTask.objects.get(pk=pk)
    assert task.state == "done", task.error
    assert services.storage_client(default_service()).head("/worker/w.bin").md5 == md5_of(data)
    assert list((media_root / "uploads").iterdir()) == []
    status = manager_client.get(reverse("storage:upload_status", args=[pk])).json()
    assert (status["percent"], status["state"]) == (100, "done")


def test_the_recovery_job_hands_an_abandoned_upload_to_the_worker(provider, media_root,
                                                                  celery_worker):
    from datetime import timedelta

    from django.utils import timezone

    from storage.tasks import recover_uploads
    from tests.storage.conftest import queue_upload

    task = queue_upload(b"abandoned", "/worker/abandoned.txt")
    UploadTask.objects.filter(pk=task.pk).update(
        state="uploading", lease_token="dead-worker",
        lease_until=timezone.now() - timedelta(minutes=1))
    recover_uploads.delay()
    wait_for(lambda: UploadTask.objects.get(pk=task.pk).state == "done")
    assert services.storage_client(default_service()).head("/worker/abandoned.txt").size == 9
