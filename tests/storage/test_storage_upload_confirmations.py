"""Discarding an upload and replacing stored files are asked first, like every destructive
action: Discard without `confirmed=1` answers the confirmation page (or, for the page's script,
the same question as JSON) and changes nothing; the pre-flight check of a drop carries the
question when files of those names are stored already. In-browser:
test_storage_browser_upload_confirmations.py."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from backoffice.security.confirm import ITEMS_SHOWN
from storage.models import UploadTask
from tests.storage.conftest import queue_upload

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
CHECK = reverse("storage:upload_check")


@pytest.fixture
def failed_upload(provider, media_root) -> UploadTask:
    task = queue_upload(b"x" * 2048, "/in/report.pdf")
    UploadTask.objects.filter(pk=task.pk).update(state="failed", error="boom", bytes_sent=1024)
    return UploadTask.objects.get(pk=task.pk)


def cancel_url(task: UploadTask) -> str:
    return reverse("storage:upload_cancel", args=[task.pk])


def test_discard_asks_on_the_confirmation_page_first(manager_client, failed_upload):
    page = manager_client.post(cancel_url(failed_upload),
                               {"next": "/storage/uploads/?state=failed"})

    html = page.content.decode()
    assert page.status_code == 200 and 'id="confirmation"' in html
    assert "Discard the upload of /in/report.pdf?" in html
    assert "What was sent so far (1.0 KiB of 2.0 KiB) is dropped" in html
    assert 'name="next" value="/storage/uploads/?state=failed"' in html
    assert 'href="/storage/uploads/?state=failed" id="confirm-back"' in html
    assert UploadTask.objects.get(pk=failed_upload.pk).state == "failed"


def test_the_answer_discards_and_says_so(manager_client, failed_upload):
    answer = manager_client.post(cancel_url(failed_upload),
                                 {"confirmed": "1", "next": "/storage/uploads/"}, follow=True)

    assert answer.redirect_chain[-1][0] == "/storage/uploads/"
    assert "The upload of /in/report.pdf was discarded." in answer.content.decode()
    assert UploadTask.objects.get(pk=failed_upload.pk).state == "cancelled"


def test_the_script_gets_the_same_question_as_json_and_nothing_changes(manager_client,
                                                                      failed_upload):
    answer = manager_client.post(cancel_url(failed_upload), **JSON)

    question = answer.json()["confirmation"]
    assert answer.status_code == 200 and answer.json()["ok"] is False
    assert question["question"] == "Discard the upload of /in/report.pdf?"
    assert question["button"] == "Discard the upload"
    assert question["back"] == "Go back: do nothing"
    assert question["items"] == ["/in/report.pdf"] and question["more"] == ""
    assert UploadTask.objects.get(pk=failed_upload.pk).state == "failed"
    confirmed = manager_client.post(cancel_url(failed_upload), {"confirmed": "1"}, **JSON)
    assert confirmed.json()["state"] == "cancelled"


@pytest.mark.parametrize("value", ["", "0", "yes", "true"])
def test_only_confirmed_1_counts_as_the_answer(manager_client, failed_upload, value):
    manager_client.post(cancel_url(failed_upload), {"confirmed": value}, **JSON)

    assert UploadTask.objects.get(pk=failed_upload.pk).state == "failed"


@pytest.mark.parametrize("state", ["done", "cancelled", "uploading"])
def test_an_upload_that_cannot_be_discarded_is_named_not_asked(manager_client, provider,
                                                              media_root, state):
    task = queue_upload(b"x", "/in/busy.bin")  # not a browser upload: uploading runs a PUT
    UploadTask.objects.filter(pk=task.pk).update(state=state)

    page = manager_client.post(cancel_url(task), {"confirmed": "1"}, follow=True)
    as_json = manager_client.post(cancel_url(task), **JSON)

    assert 'id="confirmation"' not in page.content.decode()
    assert "The upload of /in/busy.bin can no longer be discarded" in page.content.decode()
    assert as_json.status_code == 409 and as_json.json()["state"] == state
    assert UploadTask.objects.get(pk=task.pk).state == state


def test_an_auditor_cannot_discard(auditor_client, failed_upload):
    assert auditor_client.post(cancel_url(failed_upload), {"confirmed": "1"}).status_code == 403
    assert UploadTask.objects.get(pk=failed_upload.pk).state == "failed"


def test_a_get_never_discards(manager_client, failed_upload):
    assert manager_client.get(cancel_url(failed_upload)).status_code == 405
    assert UploadTask.objects.get(pk=failed_upload.pk).state == "failed"


def test_the_check_asks_before_replacing_stored_files(manager_client, provider,
                                                     sandbox_storage):
    sandbox_storage.upload("/in/a.txt", io.BytesIO(b"old"))
    sandbox_storage.upload("/in/b.txt", io.BytesIO(b"old"))
    sandbox_storage.create_folder("/in/taken")
    answer = manager_client.post(CHECK, {"folder": "/in",
                                         "name": ["a.txt", "b.txt", "new.txt", "taken"],
                                         "size": ["1", "1", "1", "1"]}).json()

    question = answer["confirmation"]
    assert question["question"] == "Replace 2 existing files in /in?"
    assert question["items"] == ["/in/a.txt", "/in/b.txt"]
    assert question["button"] == "Replace 2 files"
    # The folder of the same name is refused, not replaced, and not counted as uploaded.
    assert question["consequences"] == [
        "The stored files are overwritten by the dropped ones; their old content cannot be "
        "recovered.",
        "The other 1 dropped file is new and is uploaded too."]


def test_one_file_to_replace_is_asked_in_the_singular(manager_client, provider, sandbox_storage):
    sandbox_storage.upload("/in/a.txt", io.BytesIO(b"old"))
    question = manager_client.post(CHECK, {"folder": "/in", "name": "a.txt", "size": "1"}
                                   ).json()["confirmation"]

    assert question["question"] == "Replace 1 existing file in /in?"
    assert question["button"] == "Replace 1 file"
    assert len(question["consequences"]) == 1


def test_new_files_are_not_asked_about(manager_client, provider, sandbox_storage):
    answer = manager_client.post(CHECK, {"folder": "/in", "name": "fresh.txt", "size": "1"})

    assert "confirmation" not in answer.json()


def test_a_long_list_to_replace_names_the_first_ones_and_counts_the_rest(
        manager_client, provider, sandbox_storage):
    names = [f"f{n:03}.txt" for n in range(ITEMS_SHOWN + 3)]
    for name in names:
        sandbox_storage.upload(f"/many/{name}", io.BytesIO(b"1"))
    question = manager_client.post(CHECK, {"folder": "/many", "name": names,
                                           "size": ["1"] * len(names)}).json()["confirmation"]

    assert question["question"] == f"Replace {ITEMS_SHOWN + 3} existing files in /many?"
    assert len(question["items"]) == ITEMS_SHOWN and question["more"] == "and 3 more"


def test_the_questions_read_in_chinese(manager_client, failed_upload, sandbox_storage):
    sandbox_storage.upload("/in/a.txt", io.BytesIO(b"old"))
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    discard = manager_client.post(cancel_url(failed_upload), **JSON, **zh).json()["confirmation"]
    replace = manager_client.post(CHECK, {"folder": "/in", "name": "a.txt", "size": "1"},
                                  **zh).json()["confirmation"]

    assert discard["question"] == "放弃 /in/report.pdf 的上传？"
    assert discard["back"] == "返回：不做任何操作"
    assert replace["question"] == "替换 /in 中已有的 1 个文件？"
    assert replace["button"] == "替换 1 个文件"
