"""Automatic purge: when the storage back-office replaces or deletes a file (its real
services against the real sandbox), the file's URL and all its version URLs are purged."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from console.services import default_service
from delivery import services
from delivery.models import PurgeRequest, PurgeSource, PurgeStatus
from delivery.receivers import RECEIVERS, connect_storage_signals
from tests.delivery.conftest import Edge, png_bytes


@pytest.fixture
def versions(edge: Edge, publish: Any) -> Edge:
    publish(versions={"thumb": "/fw/100", "webp": "/format/webp"})
    return edge


def upload_through_storage(path: str, data: bytes, tmp_path: Path) -> None:
    from storage.services import create_upload, run_upload

    source = tmp_path / "upload.bin"
    source.write_bytes(data)
    task = create_upload(default_service(), source=source, target_path=path, original_name="a.png",
                         size=len(data), enqueue=False, remove_source=False)
    run_upload(task.pk)


def expected_urls(edge: Edge, path: str) -> list[str]:
    url = edge.base_url + path
    return [url, f"{url}!thumb", f"{url}!webp"]


def test_the_storage_signals_are_connected_at_start_up() -> None:
    from storage import services as storage_services

    for name in RECEIVERS:
        signal = getattr(storage_services, name)
        # disconnect() says whether it was connected; connect it back for the other tests.
        assert signal.disconnect(dispatch_uid=f"delivery.purge.{name}"), name
    assert connect_storage_signals() == list(RECEIVERS)


@pytest.mark.django_db
def test_replacing_a_file_purges_it_and_its_versions(
        versions: Edge, tmp_path: Path, eager_tasks: None,
        django_capture_on_commit_callbacks: Any) -> None:
    upload_through_storage("/auto/a.png", png_bytes(50, 50), tmp_path)
    assert not PurgeRequest.objects.exists()  # a new file has nothing cached to refresh
    with django_capture_on_commit_callbacks(execute=True):
        upload_through_storage("/auto/a.png", png_bytes(60, 60), tmp_path)
    purge = PurgeRequest.objects.get()
    assert (purge.source, purge.path, purge.status) == (
        PurgeSource.FILE_REPLACED, "/auto/a.png", PurgeStatus.SENT)
    assert purge.url_list() == expected_urls(versions, "/auto/a.png")
    assert purge.invalid_domains == []


@pytest.mark.django_db
def test_deleting_a_file_purges_it_and_its_versions(
        versions: Edge, eager_tasks: None, django_capture_on_commit_callbacks: Any) -> None:
    from storage.services import delete_file

    versions.upload("/auto/b.png", png_bytes(10, 10))
    with django_capture_on_commit_callbacks(execute=True):
        delete_file(default_service(), "/auto/b.png")
    purge = PurgeRequest.objects.get()
    assert (purge.source, purge.status) == (PurgeSource.FILE_DELETED, PurgeStatus.SENT)
    assert purge.url_list() == expected_urls(versions, "/auto/b.png")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_sends_the_automatic_purge(versions: Edge, redis_url: str) -> None:
    # Redis only: the embedded file-system broker under var/ is shared by every test run on
    # this machine, so a worker there would also take other runs' tasks.
    from celery.contrib.testing.worker import start_worker

    from backoffice.celery import app
    from storage.services import delete_file

    versions.upload("/auto/c.png", png_bytes(10, 10))
    with start_worker(app, perform_ping_check=False, pool="solo"):
        delete_file(default_service(), "/auto/c.png")
        purge = PurgeRequest.objects.get()
        # Until the worker is done with it: `sending` is its state while the call is out (a
        # loaded machine showed it), so only the outcome ends the wait.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            purge.refresh_from_db()
            if purge.status not in (PurgeStatus.PENDING, PurgeStatus.SENDING):
                break
            time.sleep(0.1)
    assert purge.status == PurgeStatus.SENT
    assert purge.attempts == 1


@pytest.mark.django_db
def test_purge_file_urls_waits_for_the_commit(versions: Edge, eager_tasks: None,
                                              django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        purge = services.purge_file_urls("/x/y.jpg")
    assert purge is not None and purge.status == PurgeStatus.PENDING
    assert len(callbacks) == 1
    callbacks[0]()
    purge.refresh_from_db()
    assert purge.status == PurgeStatus.SENT


@pytest.mark.django_db
def test_without_an_edge_address_storage_is_not_disturbed(settings: Any) -> None:
    settings.PROVIDER["delivery"] = {"delivery_url": None, "purge_url": None,
                                     "token_secret": None}
    RECEIVERS["file_deleted"](sender=None, path="/a.jpg", asynchronous=False)
    assert not PurgeRequest.objects.exists()


@pytest.mark.django_db
def test_a_folder_jobs_files_are_purged_in_as_few_requests_as_600_urls_allow(
        versions: Edge, eager_tasks: None, django_capture_on_commit_callbacks: Any) -> None:
    # 250 files of 3 URLs each (the file and its two versions): 750 URLs, two requests.
    paths = [f"/job/f{n:03}.png" for n in range(250)]
    with django_capture_on_commit_callbacks(execute=True):
        made = services.purge_files_urls([*paths, paths[0]], PurgeSource.FILE_DELETED,
                                         service=default_service(), folder="/job")
    assert [request.url_count for request in made] == [600, 150]
    purges = PurgeRequest.objects.order_by("pk")
    # The first fills the minute's 600 URLs; the second waits for room (the task retries).
    assert [(p.path, p.source, p.status) for p in purges] == [
        ("/job", PurgeSource.FILE_DELETED, PurgeStatus.SENT),
        ("/job", PurgeSource.FILE_DELETED, PurgeStatus.PENDING)]
    urls = [url for purge in purges for url in purge.url_list()]
    assert urls == [url for path in paths for url in expected_urls(versions, path)]


@pytest.mark.django_db
def test_a_folder_jobs_batch_keeps_each_files_urls_in_one_request(versions: Edge) -> None:
    # 7 URLs a file: 85 files fill 595 of a request's 600; the 86th starts the next one.
    from console.services import default_domain
    from delivery.models import ImageVersion

    for name in ("a", "b", "c", "d"):
        ImageVersion.objects.create(domain=default_domain(), name=name, params="/fw/10")
    paths = [f"/job/g{n:03}.png" for n in range(90)]
    made = services.purge_files_urls(paths, PurgeSource.FILE_DELETED,
                                     service=default_service(), folder="/job")
    assert [request.url_count for request in made] == [595, 35]
