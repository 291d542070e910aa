"""Mirroring a folder tree into StoredFile: incremental runs, details, gone rows, failures."""

from __future__ import annotations

import io

import pytest

from console.services import default_service
from storage import services
from storage.models import StoredFile, SyncRun

pytestmark = pytest.mark.django_db


def live() -> dict[str, StoredFile]:
    return {row.path: row for row in StoredFile.objects.filter(deleted_at__isnull=True)}


@pytest.fixture
def tree(provider, sandbox_storage):
    sandbox_storage.upload("/a/one.txt", io.BytesIO(b"1"), metadata={"k": "v"}, secret="s1")
    sandbox_storage.upload("/a/b/two.txt", io.BytesIO(b"22"))
    sandbox_storage.upload("/top.txt", io.BytesIO(b"333"), ttl_days=9)
    sandbox_storage.create_folder("/empty")
    return sandbox_storage


def test_a_first_run_mirrors_every_folder_and_file_with_details(tree):
    run = services.sync_tree(default_service(), "/")
    assert run.state == SyncRun.State.COMPLETED
    assert (run.folders, run.seen, run.added, run.changed, run.gone) == (4, 6, 6, 0, 0)
    rows = live()
    assert set(rows) == {"/a", "/a/one.txt", "/a/b", "/a/b/two.txt", "/top.txt", "/empty"}
    one = rows["/a/one.txt"]
    assert (one.parent, one.name, one.size, one.kind) == ("/a", "one.txt", 1, "file")
    assert one.md5 and one.details_at is not None
    assert one.metadata == {"k": "v"} and one.has_secret is True  # the value is not kept
    assert "s1" not in str(one.metadata)
    assert rows["/top.txt"].metadata == {"ttl": "9"}
    assert rows["/a/b"].is_folder and run.details_read == 3


def test_a_second_run_changes_only_what_changed_and_marks_the_gone(tree):
    services.sync_tree(default_service(), "/")
    tree.upload("/a/one.txt", io.BytesIO(b"changed!"))
    tree.delete("/a/b/two.txt")
    tree.upload("/a/new.txt", io.BytesIO(b"n"))
    run = services.sync_tree(default_service(), "/", details_limit=0)
    assert (run.added, run.changed, run.gone) == (1, 1, 1)
    rows = live()
    assert "/a/b/two.txt" not in rows
    assert StoredFile.objects.get(path="/a/b/two.txt").deleted_at is not None
    changed = rows["/a/one.txt"]
    assert changed.size == 8 and changed.details_at is None and changed.md5 == ""
    assert rows["/a/new.txt"].details_at is None


def test_a_file_that_comes_back_is_live_again(tree):
    services.sync_tree(default_service(), "/")
    tree.delete("/top.txt")
    services.sync_tree(default_service(), "/")
    tree.upload("/top.txt", io.BytesIO(b"back"))
    services.sync_tree(default_service(), "/")
    assert live()["/top.txt"].size == 4


def test_a_subtree_run_touches_only_that_subtree(tree):
    services.sync_tree(default_service(), "/")
    tree.delete("/top.txt")  # outside the subtree: left alone
    tree.delete("/a/b/two.txt")
    run = services.sync_tree(default_service(), "/a/b")
    assert run.state == SyncRun.State.COMPLETED and run.gone == 1
    assert "/top.txt" in live() and "/a/b/two.txt" not in live()


def test_a_vanished_root_marks_everything_below_it_gone(tree):
    services.sync_tree(default_service(), "/")
    tree.delete("/a/b/two.txt")
    tree.remove_folder("/a/b")
    run = services.sync_tree(default_service(), "/a/b")
    assert run.state == SyncRun.State.COMPLETED
    assert {"/a/b", "/a/b/two.txt"}.isdisjoint(live())


def test_a_failed_walk_marks_nothing_gone(tree, provider):
    services.sync_tree(default_service(), "/")
    tree.delete("/top.txt")
    provider.add_fault(service="storage", path="/a", method="GET", action="status", status=500,
                       body={"code": 50000000, "msg": "boom", "id": "f"})
    run = services.sync_tree(default_service(), "/")
    assert run.state == SyncRun.State.FAILED
    assert "boom" in run.error
    assert "/top.txt" in live()


def test_details_are_read_in_bounded_batches(provider, sandbox_storage):
    for index in range(5):
        sandbox_storage.upload(f"/many/f{index}.txt", io.BytesIO(b"x"))
    first = services.sync_tree(default_service(), "/", details_limit=2)
    second = services.sync_tree(default_service(), "/", details_limit=2)
    third = services.sync_tree(default_service(), "/", details_limit=2)
    assert (first.details_read, second.details_read, third.details_read) == (2, 2, 1)
    assert not StoredFile.objects.filter(kind="file", details_at__isnull=True).exists()


def test_thousands_of_files_are_mirrored_a_page_at_a_time(provider):
    seeded = provider.control("POST", "/storage/seed", {"path": "/seeded", "count": 2500,
                                                         "size": 4})
    assert seeded.status_code == 201, seeded.text
    run = services.sync_tree(default_service(), "/", details_limit=0)
    assert run.seen == 2501 and run.added == 2501
    again = services.sync_tree(default_service(), "/", details_limit=0)
    assert (again.added, again.changed, again.gone) == (0, 0, 0)
    assert StoredFile.objects.filter(parent="/seeded", deleted_at__isnull=True).count() == 2500
