"""Upload tasks from a local copy to the sandbox: one PUT or parts by size, the mirror, the
signals, the local copy's life, and every way an upload can fail."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from console.services import default_service
from storage import services
from storage.models import StoredFile, UploadTask
from storage.resumable import PART_SIZE
from storage.services.uploads import UploadOptions, run_upload
from tests.storage.conftest import md5_of, pseudo_random_bytes, queue_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def signals():
    """Every storage signal received, as (name, path, fields)."""
    received: list[tuple[str, str, dict]] = []
    hooks = {
        "uploaded": services.file_uploaded,
        "replaced": services.file_replaced,
        "deleted": services.file_deleted,
        "metadata": services.file_metadata_changed,
    }
    receivers = {}
    for name, signal in hooks.items():
        def receiver(sender, path, _name=name, **fields):
            fields.pop("signal", None)
            assert fields.pop("service").name == "demo-bucket"  # the bucket that changed
            received.append((_name, path, fields))

        receivers[name] = receiver
        signal.connect(receiver, weak=False)
    yield received
    for name, signal in hooks.items():
        signal.disconnect(receivers[name])


def png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (10, 120, 200)).save(buffer, "PNG")
    return buffer.getvalue()


def test_a_small_file_goes_in_one_put_and_its_local_copy_is_removed(provider, media_root,
                                                                     signals):
    data = b"small file contents"
    task = queue_upload(data, "/docs/notes.txt")
    assert not task.resumable
    done = run_upload(task.pk)
    assert done is not None
    assert done.state == UploadTask.State.DONE
    assert done.bytes_sent == len(data) and done.percent == 100
    assert not Path(task.source).exists()
    assert services.storage_client(default_service()).head("/docs/notes.txt").md5 == md5_of(data)
    row = StoredFile.objects.get(path="/docs/notes.txt")
    assert (row.size, row.md5, row.parent, row.has_secret) == (len(data), md5_of(data),
                                                               "/docs", False)
    assert StoredFile.objects.get(path="/docs").is_folder
    assert signals == [("uploaded", "/docs/notes.txt",
                        {"size": len(data), "content_type": row.content_type or None,
                         "replaced": False})]


def test_a_file_above_the_threshold_goes_in_parts_saving_each_one(provider, media_root,
                                                                  settings):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    data = pseudo_random_bytes(PART_SIZE * 3 + 777)
    task = queue_upload(data, "/big/video.bin")
    assert task.resumable
    saved: list[tuple[int, ...]] = []
    done = run_upload(task.pk, on_progress=lambda t: saved.append(
        tuple(UploadTask.objects.filter(pk=t.pk).values_list("next_part", "bytes_sent")[0])))
    assert done is not None
    assert done.state == UploadTask.State.DONE
    assert saved == [(0, 0), (1, PART_SIZE), (2, 2 * PART_SIZE), (3, 3 * PART_SIZE),
                     (-1, len(data))]
    assert services.storage_client(default_service()).head("/big/video.bin").md5 == md5_of(data)
    assert len(done.uuid) == 36


def test_ttl_and_metadata_go_with_both_kinds_of_upload(provider, media_root, settings):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    options = UploadOptions(ttl_days=7, metadata={"project": "x1"})
    small = queue_upload(b"abc", "/meta/small.txt", options=options)
    large = queue_upload(pseudo_random_bytes(PART_SIZE + 1), "/meta/large.bin", options=options)
    run_upload(small.pk)
    run_upload(large.pk)
    for path in ("/meta/small.txt", "/meta/large.bin"):
        details = services.file_details(default_service(), path)
        assert details.ttl_days == 7 and details.metadata == {"project": "x1"}


def test_image_preprocessing_goes_in_one_put_and_reports_the_stored_size(provider, media_root,
                                                                         settings):
    settings.STORAGE_RESUMABLE_THRESHOLD = 10
    options = UploadOptions(gmkerl={"x-gmkerl-type": "fix_max", "x-gmkerl-value": "50"})
    task = queue_upload(png(200, 100), "/img/wide.png", options=options)
    assert not task.resumable  # the provider does not preprocess files sent in parts
    done = run_upload(task.pk)
    assert done is not None
    assert done.state == UploadTask.State.DONE, done.error
    assert (done.result["width"], done.result["height"]) == (50, 25)
    out = io.BytesIO()
    services.storage_client(default_service()).download("/img/wide.png", out)
    assert Image.open(io.BytesIO(out.getvalue())).size == (50, 25)


def test_overwriting_a_file_sends_file_replaced(provider, media_root, signals):
    run_upload(queue_upload(b"first", "/r/a.txt").pk)
    done = run_upload(queue_upload(b"second!", "/r/a.txt").pk)
    assert done is not None
    assert done.result["replaced"] is True
    assert [name for name, *_ in signals] == ["uploaded", "uploaded", "replaced"]
    assert signals[-1][1] == "/r/a.txt"


def test_a_plain_upload_over_a_file_written_in_parts_fails_with_a_clear_message(
    provider, media_root, settings
):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    run_upload(queue_upload(pseudo_random_bytes(PART_SIZE + 10), "/p/a.bin").pk)
    task = queue_upload(b"tiny", "/p/a.bin")
    failed = run_upload(task.pk)
    assert failed is not None
    assert failed.state == UploadTask.State.FAILED
    assert "delete it first" in failed.error
    assert Path(task.source).exists()  # kept, so nothing is lost


def test_a_provider_outage_is_retried_later_then_fails(provider, media_root, fast_client,
                                                       django_capture_on_commit_callbacks):
    provider.add_fault(service="storage", path="/down/", method="PUT", action="status",
                       status=503, body={"code": 50300001, "msg": "service unavailable",
                                         "id": "z"})
    task = queue_upload(b"data", "/down/a.txt")
    for attempt in range(1, 4):
        with django_capture_on_commit_callbacks(execute=False) as scheduled:
            waiting = run_upload(task.pk, client=fast_client)
            assert waiting is not None
        assert waiting.state == UploadTask.State.QUEUED, attempt
        assert "Trying again" in waiting.error
        assert len(scheduled) == 1
    failed = run_upload(task.pk, client=fast_client)
    assert failed is not None
    assert failed.state == UploadTask.State.FAILED
    assert "failed" in failed.error and Path(task.source).exists()


def test_a_missing_local_copy_fails_clearly(provider, media_root):
    task = queue_upload(b"gone", "/x/gone.txt")
    Path(task.source).unlink()
    failed = run_upload(task.pk)
    assert failed is not None
    assert failed.state == UploadTask.State.FAILED
    assert "local copy" in failed.error


def test_a_second_delivery_while_the_first_runs_does_nothing(provider, media_root):
    task = queue_upload(b"once", "/dup/a.txt")
    inner: list[object] = []

    def deliver_again(_task):
        if not inner:
            inner.append(run_upload(task.pk))

    run_upload(task.pk, on_progress=deliver_again)
    assert inner == [None]
    assert UploadTask.objects.get(pk=task.pk).state == UploadTask.State.DONE


def test_a_finished_task_is_not_run_again(provider, media_root):
    task = queue_upload(b"done", "/dup/b.txt")
    run_upload(task.pk)
    assert run_upload(task.pk) is None


def test_discarding_a_failed_upload_removes_its_copy_and_it_never_runs(provider, media_root):
    task = queue_upload(b"discard me", "/c/a.txt")
    UploadTask.objects.filter(pk=task.pk).update(state=UploadTask.State.FAILED)
    assert services.cancel_upload(task.pk)
    assert not Path(task.source).exists()
    assert run_upload(task.pk) is None
    assert not services.resume_upload(task.pk)
    assert UploadTask.objects.get(pk=task.pk).state == UploadTask.State.CANCELLED


def test_a_running_or_finished_upload_cannot_be_discarded(provider, media_root):
    task = queue_upload(b"keep", "/c/b.txt")
    run_upload(task.pk)
    assert not services.cancel_upload(task.pk)
    assert UploadTask.objects.get(pk=task.pk).state == UploadTask.State.DONE


def test_only_a_failed_upload_can_be_resumed(provider, media_root,
                                             django_capture_on_commit_callbacks):
    task = queue_upload(b"r", "/c/r.txt")
    assert not services.resume_upload(task.pk)  # queued already
    UploadTask.objects.filter(pk=task.pk).update(state=UploadTask.State.FAILED, attempts=3)
    with django_capture_on_commit_callbacks(execute=False) as scheduled:
        assert services.resume_upload(task.pk)
    assert len(scheduled) == 1
    task.refresh_from_db()
    assert (task.state, task.attempts) == (UploadTask.State.QUEUED, 0)


def test_orphan_copies_are_removed_but_copies_in_use_are_kept(provider, media_root):
    import os
    import time

    kept = queue_upload(b"in use", "/o/a.txt")
    orphan = services.upload_dir() / "orphan.upload"
    orphan.write_bytes(b"left over")
    old = time.time() - 3 * 86400
    for path in (orphan, Path(kept.source)):
        os.utime(path, (old, old))
    assert services.remove_orphan_copies() == 1
    assert not orphan.exists() and Path(kept.source).exists()
