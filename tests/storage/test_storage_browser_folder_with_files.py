"""A folder with files in it is never confirmed and then refused: the question counts its
files first and offers to delete the folder with them, by a worker, with a progress page, and
audited at the start and the end. An empty folder is still asked about as one."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from backoffice.models import AuditEntry
from storage.client import NotFound
from storage.models import FolderDeletion

WORDING = {
    "en": ("Delete the folder /docs/full of demo-bucket and its 3 files?",
           "Delete the folder and its 3 files", "completed", "3 of 3 files deleted"),
    "zh-hans": ("删除 demo-bucket 的文件夹 /docs/full 及其中的 3 个文件？",
                "删除文件夹及其中的 3 个文件", "已完成", "已删除 3 个文件中的 3 个"),
}


@pytest.fixture
def full(provider, sandbox_storage):
    for path in ("/docs/full/a.txt", "/docs/full/b.txt", "/docs/full/deeper/c.txt"):
        sandbox_storage.upload(path, io.BytesIO(b"x" * 10))
    sandbox_storage.create_folder("/docs/empty")
    return sandbox_storage


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_folder_with_files_is_offered_for_deletion_with_them_and_followed(
        page, live_server, staff_login, full, eager_tasks, language):
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    question, button, done, progress = WORDING[language]
    page.goto(f"{live_server.url}/storage/?path=/docs")
    page.click("tr[data-name='full'] .row-menu summary")  # the row's compact menu
    with page.expect_navigation():
        page.click("tr[data-name='full'] [data-action=delete]")

    assert page.inner_text("#confirm-question") == question
    assert page.inner_text("#confirm-action") == button
    assert full.head("/docs/full/a.txt").size == 10  # asking deleted nothing
    with page.expect_navigation():
        page.click("#confirm-action")

    page.wait_for_selector("#folder-deletion[data-state=completed]")
    assert done in page.inner_text("#folder-deletion-state")
    assert page.inner_text("#folder-deletion-progress") == progress
    for path in ("/docs/full/a.txt", "/docs/full/deeper/c.txt", "/docs/full"):
        with pytest.raises(NotFound):
            full.head(path)
    assert list(AuditEntry.objects.filter(app="storage").values_list("action", "outcome")) == [
        ("folder.delete_tree.end", "ok"), ("folder.delete_tree", "ok")]


@pytest.mark.django_db
def test_an_empty_folder_is_asked_about_as_one(manager_client, full):
    html = manager_client.post(reverse("storage:delete"),
                               {"target": "folder:/docs/empty"}).content.decode()
    assert "Delete the folder /docs/empty of demo-bucket?" in html
    assert "The folder is empty." in html


@pytest.mark.django_db
def test_the_job_waits_for_a_worker_then_a_second_delivery_does_nothing(manager_client, full):
    from storage.services import run_folder_deletion

    answer = manager_client.post(reverse("storage:delete"), {
        "service": "demo-bucket", "path": "/docs/full", "kind": "folder", "tree": "1",
        "files": "3", "confirmed": "1"})
    deletion = FolderDeletion.objects.get()
    assert answer["Location"] == reverse("storage:folder_deletion", args=[deletion.pk])
    page = manager_client.get(answer["Location"]).content.decode()
    assert "waiting for a worker" in page and 'http-equiv="refresh"' in page
    assert full.head("/docs/full/a.txt").size == 10

    assert run_folder_deletion(deletion.pk).state == "completed"
    assert run_folder_deletion(deletion.pk).files_done == 3  # taken once only
    with pytest.raises(NotFound):
        full.head("/docs/full")
