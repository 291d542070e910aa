"""The dashboard's count of mirrored files: counting reads every row of the mirror, so the
count is taken by the mirror walk when it completes (in a worker) and shown beside the time of
that walk; only before the first walk does the dashboard count, at most once a minute."""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from console.services import default_service
from storage import dashboard
from storage.models import StoredFile, SyncRun
from storage.services import sync_tree

pytestmark = pytest.mark.django_db


def mirror(path: str) -> None:
    StoredFile.objects.create(
        service=default_service(), path=path, parent="/", name=path.strip("/"),
        kind=StoredFile.Kind.FILE,
        last_seen=timezone.now(),
    )


def counts_of_the_mirror(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries
            if "COUNT" in query["sql"] and '"storage_storedfile"' in query["sql"]]


def test_before_the_first_walk_the_count_is_taken_at_most_once_a_minute(provider):
    cache.delete(dashboard.FILES_KEY.format(default_service().pk))
    mirror("/a.jpg")

    assert dashboard.mirrored_files(default_service(), None) == 1
    mirror("/b.jpg")
    assert dashboard.mirrored_files(default_service(), None) == 1  # from the cache

    cache.delete(dashboard.FILES_KEY.format(default_service().pk))
    assert dashboard.mirrored_files(default_service(), None) == 2
    cache.delete(dashboard.FILES_KEY.format(default_service().pk))


def test_a_completed_walk_counts_the_files_and_the_dashboard_shows_its_figure(
        provider, sandbox_storage, manager_client):
    for path in ("/walked/a.txt", "/walked/b.txt", "/walked/deeper/c.txt"):
        sandbox_storage.upload(path, io.BytesIO(path.encode()))
    run = sync_tree(default_service())
    assert run.state == SyncRun.State.COMPLETED and run.files == 3

    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        page = manager_client.get("/").content.decode()
    assert counts_of_the_mirror(queries) == []
    assert ">3</a>" in page


def test_a_failed_walk_leaves_the_figure_of_the_last_completed_one(provider):
    service = default_service()
    now = timezone.now()
    SyncRun.objects.create(service=service, root="/", state=SyncRun.State.COMPLETED,
                           started_at=now, finished_at=now, files=41)
    SyncRun.objects.create(service=service, root="/", state=SyncRun.State.FAILED,
                           started_at=now, finished_at=now, error="unreachable")
    last = SyncRun.objects.filter(service=service, state=SyncRun.State.COMPLETED).first()
    assert dashboard.mirrored_files(service, last) == 41
