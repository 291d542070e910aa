"""A resumable upload interrupted after some parts (lost connection, dead worker, expired
provider task, changed local file) continues at its saved part, and the provider ends up with
exactly the bytes of the file."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from console.services import default_service
from storage import services
from storage.client import NotFound
from storage.models import UploadTask
from storage.resumable import PART_SIZE
from storage.services.uploads import run_upload
from tests.storage.conftest import md5_of, pseudo_random_bytes, queue_upload, synced_client

pytestmark = pytest.mark.django_db

PARTS = 8


@pytest.fixture
def large(settings, media_root):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    return pseudo_random_bytes(PART_SIZE * (PARTS - 1) + 4321)


class WorkerKilled(BaseException):
    """Stands for the worker process dying: nothing after it runs, not even except blocks."""


def parts_sent_after(task_pk: int, run, **kwargs) -> list[int]:
    """Run the upload and return the next-part ids it saved, in order."""
    seen: list[int] = []
    run(task_pk, on_progress=lambda task: seen.append(task.next_part), **kwargs)
    return seen


def test_a_lost_connection_after_three_parts_resumes_at_the_fourth(provider, large,
                                                                   fast_client):
    task = queue_upload(large, "/videos/lost.bin")

    def cut_the_line(saved):
        if saved.next_part == 3:  # parts 0-2 are at the provider
            provider.add_fault(service="storage", path="/videos/lost.bin", method="PUT",
                               action="drop", times=4)

    interrupted = run_upload(task.pk, on_progress=cut_the_line, client=fast_client)
    assert interrupted is not None
    assert interrupted.state == UploadTask.State.QUEUED  # a retry is scheduled
    assert (interrupted.next_part, interrupted.bytes_sent) == (3, 3 * PART_SIZE)
    assert "could not be reached" in interrupted.error

    resumed = parts_sent_after(task.pk, run_upload, client=fast_client)
    assert resumed == [4, 5, 6, 7, -1]
    task.refresh_from_db()
    assert task.state == UploadTask.State.DONE
    assert services.storage_client(default_service()).head("/videos/lost.bin").md5 == md5_of(large)


def test_a_failed_upload_resumes_with_one_click_at_its_saved_part(provider, large, fast_client,
                                                                  django_capture_on_commit_callbacks):
    task = queue_upload(large, "/videos/click.bin")

    def cut_the_line(saved):
        if saved.next_part == 5:
            provider.add_fault(service="storage", path="/videos/click.bin", method="PUT",
                               action="drop")

    run_upload(task.pk, on_progress=cut_the_line, client=fast_client)
    while UploadTask.objects.get(pk=task.pk).state == UploadTask.State.QUEUED:
        run_upload(task.pk, client=fast_client)  # the automatic retries, all refused
    failed = UploadTask.objects.get(pk=task.pk)
    assert failed.state == UploadTask.State.FAILED and failed.next_part == 5

    provider.control("DELETE", "/faults")
    with django_capture_on_commit_callbacks(execute=False) as scheduled:
        assert services.resume_upload(task.pk)  # the Resume button
    assert len(scheduled) == 1  # the worker's task, run here in its place
    assert parts_sent_after(task.pk, run_upload) == [6, 7, -1]
    task.refresh_from_db()
    assert task.state == UploadTask.State.DONE
    assert services.storage_client(default_service()).head("/videos/click.bin").md5 == md5_of(large)


def test_a_dead_worker_is_taken_over_once_its_lease_runs_out(provider, large,
                                                             django_capture_on_commit_callbacks):
    task = queue_upload(large, "/videos/crash.bin")

    def die(saved):
        if saved.next_part == 4:
            raise WorkerKilled

    with pytest.raises(WorkerKilled):
        run_upload(task.pk, on_progress=die)
    stuck = UploadTask.objects.get(pk=task.pk)
    assert (stuck.state, stuck.next_part) == (UploadTask.State.UPLOADING, 4)

    assert run_upload(task.pk) is None  # its lease is still running: hands off
    assert services.recover_stalled_uploads() == []

    UploadTask.objects.filter(pk=task.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=False) as scheduled:
        assert services.recover_stalled_uploads() == [task.pk]
    assert len(scheduled) == 1
    assert parts_sent_after(task.pk, run_upload) == [5, 6, 7, -1]
    assert services.storage_client(default_service()).head("/videos/crash.bin").md5 == md5_of(large)


def test_a_worker_that_lost_its_lease_stops_without_touching_the_task(provider, large):
    task = queue_upload(large, "/videos/stolen.bin")

    def taken_over(saved):
        if saved.next_part == 2:
            UploadTask.objects.filter(pk=saved.pk).update(lease_token="someone-else")

    stopped = run_upload(task.pk, on_progress=taken_over)
    assert stopped is not None
    assert stopped.lease_token == "someone-else"
    assert stopped.state == UploadTask.State.UPLOADING and stopped.next_part == 2


def test_an_upload_whose_provider_task_expired_restarts_from_the_first_part(provider, large,
                                                                            fast_client):
    task = queue_upload(large, "/videos/expired.bin")

    def die(saved):
        if saved.next_part == 3:
            raise WorkerKilled

    with pytest.raises(WorkerKilled):
        run_upload(task.pk, on_progress=die, client=fast_client)
    first_uuid = UploadTask.objects.get(pk=task.pk).uuid
    provider.advance(25 * 3600)
    UploadTask.objects.filter(pk=task.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    later = synced_client(provider)
    seen = parts_sent_after(task.pk, run_upload, client=later)
    assert seen[:2] == [0, 0]  # the task is forgotten, a new one is opened at part 0
    assert seen[2:] == [1, 2, 3, 4, 5, 6, 7, -1]
    task.refresh_from_db()
    assert task.state == UploadTask.State.DONE and task.uuid != first_uuid
    assert later.head("/videos/expired.bin").md5 == md5_of(large)


def interrupted_after_two_parts(large, target):
    task = queue_upload(large, target)

    def die(saved):
        if saved.next_part == 2:
            raise WorkerKilled

    with pytest.raises(WorkerKilled):
        run_upload(task.pk, on_progress=die)
    UploadTask.objects.filter(pk=task.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    return task


def test_a_local_copy_changed_where_parts_were_sent_still_stores_the_received_file(
    provider, large
):
    task = interrupted_after_two_parts(large, "/videos/changed.bin")
    with open(task.source, "r+b") as copy:  # same size, other bytes, in part 0
        copy.write(b"\x00" * 16)
    done = run_upload(task.pk)
    assert done is not None
    assert done.state == UploadTask.State.DONE
    assert synced_client(provider).head("/videos/changed.bin").md5 == md5_of(large)


def test_a_local_copy_changed_where_parts_were_not_sent_fails_and_stores_nothing(
    provider, large
):
    task = interrupted_after_two_parts(large, "/videos/changed.bin")
    with open(task.source, "r+b") as copy:  # same size, other bytes, in part 5
        copy.seek(5 * PART_SIZE)
        copy.write(b"\x00" * 16)
    failed = run_upload(task.pk)
    assert failed is not None
    assert failed.state == UploadTask.State.FAILED
    assert "changed since it was received" in failed.error
    assert (failed.uuid, failed.next_part, failed.bytes_sent) == ("", 0, 0)
    with pytest.raises(NotFound):  # the provider refused the file: nothing was installed
        synced_client(provider).head("/videos/changed.bin")
