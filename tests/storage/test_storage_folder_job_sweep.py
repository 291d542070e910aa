"""Folder jobs (a folder deleted, copied or moved with everything in it) are never lost: one
asked for while the broker was unreachable runs after the sweep; one whose worker was
SIGKILLed mid-run is taken over and finished with nothing done twice; a second delivery of a
job another run holds does nothing; a job whose runs keep dying is given up with the reason;
and the files a job deletes are purged together, not one request each.

Real Celery workers (a thread, and processes that are killed), the test's PostgreSQL and
Redis, the sandbox's storage and edge.
"""

from __future__ import annotations

import io
import logging
import time
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.utils import timezone

from backoffice.models import AuditEntry
from backoffice.operations import once_a_minute
from console.services import default_service
from delivery.models import PurgeRequest, PurgeSource
from storage import services
from storage.models import FolderDeletion, FolderTransfer
from storage.services import job_lease
from tests.sms.test_sms_campaign_resume import (
    clean_broker,  # noqa: F401 - a fixture
    kill,
    start_worker,
    worker_environment,
)

FILES = [f"/job/f{n:02}.txt" for n in range(15)] + ["/job/sub/x.txt"]
SOURCE = [f"/src/f{n:02}.txt" for n in range(40)]


def upload(client, paths: list[str]) -> None:
    for path in paths:
        client.upload(path, io.BytesIO(path.encode()))


def body_of(client, path: str) -> bytes:
    out = io.BytesIO()
    client.download(path, out)
    return out.getvalue()


def wait_for(condition, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def purged_paths(source: str = PurgeSource.FILE_DELETED) -> list[str]:
    return sorted(urlsplit(url).path for purge in PurgeRequest.objects.filter(source=source)
                  for url in purge.url_list())


@pytest.fixture
def full_folder(provider, sandbox_storage):
    upload(sandbox_storage, FILES)
    return sandbox_storage


@pytest.mark.django_db(transaction=True)
def test_a_folder_deletion_asked_for_while_the_broker_is_unreachable_runs_after_the_sweep(
        full_folder, caplog):
    from celery.contrib.testing.worker import start_worker as worker_thread

    from backoffice.celery import app
    from storage import tasks
    from tests.topup.test_without_redis import point_celery_at

    once_a_minute.forget()
    caplog.set_level(logging.WARNING)
    previous = app.conf.broker_url
    point_celery_at("redis://127.0.0.1:1/0")  # nothing listens there
    try:
        deletion = services.start_folder_deletion(default_service(), "/job", 16, None)
    finally:
        point_celery_at(previous)
    assert "broker unavailable: storage.tasks.delete_folder_tree" in caplog.text
    assert FolderDeletion.objects.get().state == FolderDeletion.State.QUEUED

    app.control.purge()
    with worker_thread(app, perform_ping_check=False, pool="solo", shutdown_timeout=30):
        # Not yet STORAGE_FOLDER_JOB_STALE_S old: its message may merely be on its way.
        assert services.resume_folder_jobs() == []
        FolderDeletion.objects.update(queued_at=timezone.now() - timedelta(seconds=61))
        tasks.resume_folder_jobs.delay()  # the beat's job, through the broker
        wait_for(lambda: FolderDeletion.objects.get().is_final, 60, "the deletion to end")

    deletion.refresh_from_db()
    assert (deletion.state, deletion.files_done, deletion.folders_done, deletion.claims) == (
        "completed", 16, 2, 1)
    assert not full_folder.exists("/job")
    assert AuditEntry.objects.filter(action="folder.delete_tree.end").count() == 1
    # One purge request for the 16 files, named by the folder (a single delete purges too).
    assert PurgeRequest.objects.get(source=PurgeSource.FILE_DELETED).path == "/job"
    assert purged_paths() == sorted(FILES)
    assert services.resume_folder_jobs() == []  # finished: never sent again


@pytest.mark.django_db
def test_a_second_delivery_leaves_a_held_job_alone_and_a_dead_runs_job_is_taken_over(
        full_folder, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        deletion = services.start_folder_deletion(default_service(), "/job", 16, None)
    # A run in another worker holds it: a second delivery, and the sweep, leave it alone.
    assert job_lease.claim(FolderDeletion, deletion.pk, timedelta(minutes=1))
    assert services.run_folder_deletion(deletion.pk).files_done == 0
    assert full_folder.exists("/job/f00.txt")
    assert services.resume_folder_jobs() == []

    # That run died after it had listed f00 (and a file of an earlier step) to purge.
    FolderDeletion.objects.update(lease_until=timezone.now() - timedelta(seconds=1),
                                  purge_paths=["/job/f00.txt", "/job/deleted-before.txt"])
    assert services.resume_folder_jobs() == [f"deletion:{deletion.pk}"]
    finished = services.run_folder_deletion(deletion.pk)

    assert (finished.state, finished.claims, finished.files_done) == ("completed", 2, 16)
    assert not full_folder.exists("/job")
    # Its list is purged with the rest, f00 once.
    assert purged_paths() == sorted([*FILES, "/job/deleted-before.txt"])
    assert AuditEntry.objects.filter(action="folder.delete_tree.end").count() == 1


@pytest.mark.django_db
def test_a_long_deletion_announces_its_files_as_it_goes_and_keeps_none_back(
        full_folder, monkeypatch):
    from storage.services import folder_deletion, job_purge

    # Steps of 5 files, announced once 4 are listed: 600 and 20 in production.
    monkeypatch.setattr(folder_deletion, "PROGRESS_EVERY", 5)
    monkeypatch.setattr(job_purge, "ANNOUNCE_EVERY", 4)
    deletion = services.start_folder_deletion(default_service(), "/job", 16, None)
    finished = services.run_folder_deletion(deletion.pk)

    assert (finished.state, finished.files_done, finished.purge_paths) == ("completed", 16, [])
    counts = PurgeRequest.objects.order_by("pk").values_list("url_count", flat=True)
    assert list(counts) == [5, 5, 5, 1]  # one domain without versions: a URL a file
    assert purged_paths() == sorted(FILES)


@pytest.fixture
def source(provider, sandbox_storage):
    upload(sandbox_storage, SOURCE[:10])
    return sandbox_storage


def dead_move(copied_up_to: str, failures: list[dict[str, str]] | None = None
              ) -> FolderTransfer:
    """A move of /src to /dst whose run died after saving its progress at `copied_up_to`."""
    plan = services.plan_transfer(default_service(), "/src", "/dst", "move")
    job = services.start_folder_transfer(plan, None)
    FolderTransfer.objects.filter(pk=job.pk).update(
        state=FolderTransfer.State.RUNNING, claims=1, copied_up_to=copied_up_to,
        files_copied=SOURCE.index(copied_up_to) + 1, failures=failures or [],
        lease_until=timezone.now() - timedelta(seconds=1))
    return job


@pytest.mark.django_db
def test_a_taken_over_move_copies_only_what_the_dead_run_had_not_confirmed(source, sandbox):
    for path in SOURCE[:5]:  # the dead run's copies
        source.copy(path, path.replace("/src/", "/dst/"))
    # Copied again, these would be refused: the run that takes over must not copy them.
    sandbox.add_fault(service="storage", path=r"/dst/f0[0-4]\.txt$", method="PUT",
                      action="status", status=403,
                      body={"code": 40300004, "msg": "bucket is full", "id": "t-3"})
    job = services.run_folder_transfer(dead_move("/src/f04.txt").pk)

    assert (job.state, job.claims, job.files_copied, job.files_removed) == (
        "completed", 2, 10, 10)
    assert not source.exists("/src")
    for path in SOURCE[:10]:
        assert body_of(source, path.replace("/src/", "/dst/")) == path.encode()


@pytest.mark.django_db
def test_a_copy_the_dead_run_saw_fail_still_keeps_the_source_of_a_move(source):
    failure = {"path": "/src/f02.txt", "target": "/dst/f02.txt", "phase": "copy",
               "kind": "StorageError", "text": "The provider refused."}
    job = services.run_folder_transfer(dead_move("/src/f04.txt", [failure]).pk)

    assert (job.state, job.files_removed) == ("failed", 0)
    assert [entry["path"] for entry in job.failures] == ["/src/f02.txt"]
    for path in SOURCE[:10]:
        assert body_of(source, path) == path.encode()  # nothing of the source deleted


@pytest.mark.django_db
def test_a_job_whose_runs_keep_dying_is_given_up_with_the_reason(provider):
    deletion = FolderDeletion.objects.create(
        service=default_service(), path="/job", files_total=3,
        state=FolderDeletion.State.RUNNING, claims=job_lease.MAX_CLAIMS,
        lease_until=timezone.now() - timedelta(seconds=1))
    assert services.resume_folder_jobs() == []
    deletion.refresh_from_db()
    assert deletion.state == FolderDeletion.State.FAILED
    assert "interrupted too many times" in deletion.error
    assert AuditEntry.objects.get(action="folder.delete_tree.end").outcome == "failed"


def storage_environment(sandbox, redis_url: str) -> dict[str, str]:
    info = sandbox.info
    return {**worker_environment(sandbox, redis_url),
            "STORAGE_URL": info["storage_url"], "STORAGE_BUCKET": info["storage"]["bucket"],
            "STORAGE_OPERATOR": info["storage"]["operator"],
            "STORAGE_PASSWORD": info["storage"]["password"],
            "DELIVERY_URL": info["delivery_url"], "PURGE_URL": info["purge_url"],
            "DELIVERY_TOKEN_SECRET": info["delivery"]["token_secret"]}


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_killed_workers_folder_move_is_resumed_with_nothing_done_twice(
        provider, postgres, clean_broker, sandbox_storage, tmp_path):  # noqa: F811
    from storage import tasks

    upload(sandbox_storage, SOURCE)
    # Each copy is answered 250 ms after the provider made it: the kill lands mid-job.
    provider.add_fault(service="storage", path=r"/dst/", method="PUT", action="delay",
                       delay_ms=250, when="after")
    env = storage_environment(provider, clean_broker)
    logs = {name: tmp_path / f"{name}.log" for name in ("first", "second")}
    first = start_worker(env, logs["first"], "first")
    second = None
    try:
        wait_for(lambda: "ready." in logs["first"].read_text(), 60, "the first worker")
        plan = services.plan_transfer(default_service(), "/src", "/dst", "move")
        job = services.start_folder_transfer(plan, None)
        wait_for(lambda: FolderTransfer.objects.get().files_copied >= 20, 60,
                 "the first steps' copies")
        kill(first)
        killed_at = time.monotonic()
        second = start_worker(env, logs["second"], "second")
        wait_for(lambda: "ready." in logs["second"].read_text(), 60, "the second worker")
        # The beat's sweep, every 2 s here (every 15 s in production).
        deadline = time.monotonic() + 90
        while FolderTransfer.objects.get().claims < 2 and time.monotonic() < deadline:
            tasks.resume_folder_jobs.delay()
            time.sleep(2)
        resumed_s = time.monotonic() - killed_at
        print(f"\nfolder move taken over {resumed_s:.1f} s after its worker was killed")
        assert resumed_s < job_lease.WATCHED_LEASE.total_seconds() + 10
        wait_for(lambda: FolderTransfer.objects.get().is_final, 90, "the move to end")
    finally:
        for process in (first, second):
            if process is not None:
                kill(process)

    job.refresh_from_db()
    assert (job.state, job.claims, job.files_copied, job.files_removed, job.failures) == (
        "completed", 2, 40, 40, [])
    assert not sandbox_storage.exists("/src")
    for path in SOURCE:
        assert body_of(sandbox_storage, path.replace("/src/", "/dst/")) == path.encode()
    assert AuditEntry.objects.filter(action="folder.move").count() == 1
    assert AuditEntry.objects.filter(action="folder.move.end").count() == 1
    # The moved files' URLs, each once, in one request named by the folder.
    assert list(PurgeRequest.objects.values_list("path", flat=True)) == ["/src"]
    assert purged_paths() == sorted(SOURCE)
