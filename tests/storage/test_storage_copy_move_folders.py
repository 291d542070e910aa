"""Copy and move of whole folders, by the worker's job against the real sandbox: every level
walked with the listing's paging, empty folders too, the mirror and the purge of moved URLs
following, and a copy that fails midway leaving the source complete with the failure named
and its reason translated."""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from django.utils import translation

from backoffice.models import AuditEntry
from delivery.models import PurgeRequest, PurgeSource
from storage.client import NotFound
from storage.models import FolderTransfer, StoredFile
from storage.services import folder_transfer

TREE = [f"/src/f{n:02}.txt" for n in range(12)] + [
    "/src/one/a.txt", "/src/one/two/b.txt", "/src/one/two/three/c.txt"]


@pytest.fixture
def tree(provider, sandbox_storage, monkeypatch):
    for path in TREE:
        sandbox_storage.upload(path, io.BytesIO(path.encode()))
    sandbox_storage.create_folder("/src/empty")
    # Five names a listing request: the top folder's 14 entries take three pages.
    monkeypatch.setattr(folder_transfer, "LIST_PAGE_SIZE", 5)
    return sandbox_storage


def ask(client, action: str, source: str, target: str, **extra: str):
    return client.post("/storage/transfer/", {
        "service": "demo-bucket", "path": source, "action": action, "target": target,
        "target_service": "demo-bucket", **extra})


def run_confirmed(client, action: str, source: str, target: str, **extra: str
                  ) -> FolderTransfer:
    answer = ask(client, action, source, target, confirmed="1", **extra)
    job = FolderTransfer.objects.get()
    assert answer["Location"] == reverse("storage:folder_transfer", args=[job.pk])
    return folder_transfer.run_folder_transfer(job.pk)


def body_of(client, path: str) -> bytes:
    out = io.BytesIO()
    client.download(path, out)
    return out.getvalue()


@pytest.mark.django_db
def test_a_folder_is_asked_about_with_its_counts_first(manager_client, tree):
    html = ask(manager_client, "copy", "/src", "/dst").content.decode()
    assert "Copy the folder /src and its 15 files to /dst?" in html
    assert "Its 4 subfolders go too." in html
    assert not FolderTransfer.objects.exists() and not tree.exists("/dst")


@pytest.mark.django_db
def test_a_folder_is_copied_at_every_level_past_one_listing_page(manager_client, tree):
    job = run_confirmed(manager_client, "copy", "/src", "/dst")

    assert (job.state, job.files_total, job.files_copied, job.failures) == (
        "completed", 15, 15, [])
    for path in TREE:
        target = path.replace("/src/", "/dst/", 1)
        assert body_of(tree, target) == body_of(tree, path) == path.encode()
    assert tree.head("/dst/empty").type == "folder"
    assert StoredFile.objects.filter(path__startswith="/dst/", kind="file").count() == 15
    assert StoredFile.objects.get(path="/dst/one/two/three").is_folder
    assert list(AuditEntry.objects.filter(app="storage").values_list("action", "outcome")) == [
        ("folder.copy.end", "ok"), ("folder.copy", "ok")]
    assert folder_transfer.run_folder_transfer(job.pk).files_copied == 15  # taken once only


@pytest.mark.django_db
def test_a_moved_folder_leaves_nothing_and_its_urls_are_purged(
        manager_client, tree, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        job = run_confirmed(manager_client, "move", "/src", "/moved/here")

    assert (job.state, job.files_copied, job.files_removed) == ("completed", 15, 15)
    with pytest.raises(NotFound):
        tree.head("/src")
    assert body_of(tree, "/moved/here/one/two/three/c.txt") == b"/src/one/two/three/c.txt"
    assert tree.head("/moved/here/empty").type == "folder"
    # One purge request for the job's 15 files (well under 600 URLs), named by the folder.
    purge = PurgeRequest.objects.get(source=PurgeSource.FILE_DELETED)
    assert purge.path == "/src"
    assert sorted(urlsplit(url).path for url in purge.url_list()) == sorted(TREE)
    assert not StoredFile.objects.filter(path__startswith="/src/", deleted_at__isnull=True)


@pytest.mark.django_db
def test_a_folder_into_an_existing_folder_is_asked_as_a_merge(manager_client, tree):
    tree.upload("/dst/f00.txt", io.BytesIO(b"old"))
    html = ask(manager_client, "copy", "/src", "/dst", confirmed="1").content.decode()
    assert "The folder /dst already exists: the files go into it, replacing those with the " \
           "same names." in html
    assert not FolderTransfer.objects.exists()
    job = run_confirmed(manager_client, "copy", "/src", "/dst", merge="1")
    assert job.state == "completed" and job.replace
    assert body_of(tree, "/dst/f00.txt") == b"/src/f00.txt"


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["copy", "move"])
def test_a_copy_failing_midway_leaves_the_source_complete_and_says_why(
        manager_client, tree, sandbox, action):
    sandbox.add_fault(service="storage", path=r"/dst/one/two/b\.txt", method="PUT",
                      action="status", status=403,
                      body={"code": 40300004, "msg": "bucket is full", "id": "t-1"})
    job = run_confirmed(manager_client, action, "/src", "/dst")

    assert (job.state, job.files_copied, job.files_removed) == ("failed", 14, 0)
    assert [(f["path"], f["phase"]) for f in job.failures] == [("/src/one/two/b.txt", "copy")]
    for path in TREE:
        assert body_of(tree, path) == path.encode()  # every source file is still there
    assert tree.head("/src/empty").type == "folder"
    assert AuditEntry.objects.get(action=f"folder.{action}.end").outcome == "failed"

    page = manager_client.get(reverse("storage:folder_transfer", args=[job.pk]))
    html = page.content.decode()
    assert 'data-path="/src/one/two/b.txt"' in html and "1 item failed" in html
    assert "The provider refused: bucket is full (code 40300004, request t-1)." in html
    if action == "move":
        assert "nothing of the source was deleted: it is complete where it was." in html
    with translation.override("zh-hans"):
        manager_client.cookies["django_language"] = "zh-hans"
        chinese = manager_client.get(reverse("storage:folder_transfer", args=[job.pk]))
    chinese_html = chinese.content.decode()
    assert "1 项失败" in chinese_html
    assert "服务商拒绝：空间已满（错误码 40300004，请求 t-1）。" in chinese_html


@pytest.mark.django_db
def test_a_source_removed_before_the_worker_starts_fails_with_the_reason(manager_client, tree):
    ask(manager_client, "copy", "/src/one", "/dst", confirmed="1")
    job = FolderTransfer.objects.get()
    for path in ("/src/one/two/three/c.txt", "/src/one/two/b.txt", "/src/one/a.txt"):
        tree.delete(path)
    for folder in ("/src/one/two/three", "/src/one/two", "/src/one"):
        tree.remove_folder(folder)
    job = folder_transfer.run_folder_transfer(job.pk)
    assert job.state == "failed"
    assert job.error == "There is no file or folder at /src/one."


@pytest.mark.django_db
def test_a_delete_refused_after_every_copy_leaves_that_file_at_both_places(
        manager_client, tree, sandbox):
    sandbox.add_fault(service="storage", path=r"/src/f03\.txt$", method="DELETE",
                      action="status", status=403,
                      body={"code": 40300011, "msg": "has no permission to delete", "id": "t-2"})
    job = run_confirmed(manager_client, "move", "/src", "/moved")

    assert (job.state, job.files_copied, job.files_removed) == ("failed", 15, 14)
    assert [(f["path"], f["phase"]) for f in job.failures] == [
        ("/src/f03.txt", "delete"), ("/src", "delete")]  # the folder still holds it
    assert body_of(tree, "/src/f03.txt") == body_of(tree, "/moved/f03.txt") == b"/src/f03.txt"
    assert not tree.exists("/src/f04.txt") and tree.exists("/moved/f04.txt")
    html = manager_client.get(reverse("storage:folder_transfer", args=[job.pk])).content.decode()
    assert "has no permission to delete (code 40300011, request t-2)" in html
    assert "The folder /src is not empty" in html
