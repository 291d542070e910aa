"""Browser uploads part by part (STORAGE_BROWSER_UPLOAD_ROUTE=through-backoffice): each part is
forwarded to the real sandbox by the request that carries it, nothing is written to the web
node's disk, and a bad part (out of order, twice, the wrong size, for a closed upload) is
refused with the part the provider expects, changing nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from storage.models import UploadTask
from storage.resumable import PART_SIZE
from tests.storage.conftest import md5_of, pseudo_random_bytes

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("through_backoffice")]

CREATE = reverse("storage:upload_create")


@pytest.fixture
def in_parts(settings):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE


def open_upload(client: Client, name: str, size: int, folder: str = "/in") -> dict:
    response = client.post(CREATE, {"folder": folder, "name": name, "size": str(size)})
    assert response.status_code == 201, response.content
    return response.json()["upload"]


def send(client: Client, upload: dict, part_id: int, data: bytes):
    return client.post(f"{upload['part_url']}{part_id}/", data=data,
                       content_type="application/octet-stream")


def part(data: bytes, part_id: int) -> bytes:
    return data[part_id * PART_SIZE:(part_id + 1) * PART_SIZE]


def row(pk: int) -> tuple:
    task = UploadTask.objects.get(pk=pk)
    return (task.state, task.uuid, task.next_part, task.bytes_sent, task.error)


def test_a_file_sent_part_by_part_reaches_the_provider_and_nothing_is_kept_locally(
    manager_client, provider, sandbox_storage, media_root, in_parts
):
    data = pseudo_random_bytes(PART_SIZE * 2 + 777)
    upload = open_upload(manager_client, "big.bin", len(data))
    assert upload["resumable"] is True and upload["next_part"] == 0
    answers = [send(manager_client, upload, n, part(data, n)) for n in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert [a.json()["next_part"] for a in answers] == [1, 2, -1]
    assert [a.json()["upload"]["bytes_sent"] for a in answers] == [
        PART_SIZE, 2 * PART_SIZE, len(data)]
    task = UploadTask.objects.get(pk=upload["id"])
    assert task.state == "done" and task.md5 == md5_of(data)
    assert sandbox_storage.head("/in/big.bin").md5 == md5_of(data)
    assert list(media_root.rglob("*")) == []


def test_a_file_up_to_the_threshold_goes_in_one_request(manager_client, provider,
                                                         sandbox_storage, media_root):
    upload = open_upload(manager_client, "note.txt", 12)
    assert upload["resumable"] is False
    answer = send(manager_client, upload, 0, b"a small note")
    assert answer.status_code == 200 and answer.json()["upload"]["state"] == "done"
    assert sandbox_storage.head("/in/note.txt").size == 12
    assert UploadTask.objects.get().md5 == md5_of(b"a small note")


def test_a_part_out_of_order_is_refused_with_the_expected_part_and_nothing_changes(
    manager_client, provider, sandbox_storage, in_parts
):
    data = pseudo_random_bytes(PART_SIZE * 3)
    upload = open_upload(manager_client, "order.bin", len(data))
    assert send(manager_client, upload, 0, part(data, 0)).status_code == 200
    before = row(upload["id"])
    answer = send(manager_client, upload, 2, part(data, 2))
    assert answer.status_code == 409
    body = answer.json()
    assert (body["ok"], body["field"], body["kind"], body["expected_part"]) == (
        False, "part", "out_of_order", 1)
    assert body["error"] == "Part 2 was sent, but the provider expects part 1."
    assert row(upload["id"]) == before


def test_a_part_sent_twice_is_refused_and_the_upload_goes_on_at_the_next_part(
    manager_client, provider, sandbox_storage, in_parts
):
    data = pseudo_random_bytes(PART_SIZE + 5)
    upload = open_upload(manager_client, "twice.bin", len(data))
    assert send(manager_client, upload, 0, part(data, 0)).status_code == 200
    before = row(upload["id"])
    again = send(manager_client, upload, 0, part(data, 0))
    assert again.status_code == 409 and again.json()["expected_part"] == 1
    assert row(upload["id"]) == before
    assert send(manager_client, upload, 1, part(data, 1)).json()["upload"]["state"] == "done"
    assert sandbox_storage.head("/in/twice.bin").md5 == md5_of(data)


def test_a_part_of_the_wrong_size_is_refused_naming_the_size(manager_client, provider,
                                                             in_parts):
    upload = open_upload(manager_client, "short.bin", PART_SIZE * 2)
    answer = send(manager_client, upload, 0, b"x" * 1000)
    assert answer.status_code == 400
    assert answer.json()["error"] == "Part 0 must be 1048576 bytes long, not 1000."
    assert answer.json()["expected_part"] == 0
    assert row(upload["id"])[:3] == ("uploading", "", 0)


@pytest.mark.parametrize("closing", ["finished", "cancelled"])
def test_a_part_for_a_closed_upload_is_refused(manager_client, provider, sandbox_storage,
                                               closing):
    upload = open_upload(manager_client, "closed.txt", 3)
    if closing == "finished":
        assert send(manager_client, upload, 0, b"abc").status_code == 200
    else:
        cancel = manager_client.post(upload["cancel_url"], {"confirmed": "1"},
                                     HTTP_ACCEPT="application/json")
        assert cancel.json()["state"] == "cancelled"
    before = row(upload["id"])
    answer = send(manager_client, upload, 0, b"abc")
    assert answer.status_code == 409
    assert answer.json()["kind"] == "not_open" and answer.json()["expected_part"] is None
    assert "takes no more parts" in answer.json()["error"]
    assert row(upload["id"]) == before


def test_a_reloaded_page_takes_the_upload_up_at_the_providers_next_part(
    manager_client, provider, sandbox_storage, in_parts, manager
):
    data = pseudo_random_bytes(PART_SIZE * 2 + 1)
    first = open_upload(manager_client, "resume.bin", len(data))
    assert send(manager_client, first, 0, part(data, 0)).status_code == 200
    other_tab = Client()
    other_tab.force_login(manager)
    again = open_upload(other_tab, "resume.bin", len(data))
    assert again["id"] == first["id"] and again["next_part"] == 1
    for n in (1, 2):
        assert send(other_tab, again, n, part(data, n)).status_code == 200
    assert sandbox_storage.head("/in/resume.bin").md5 == md5_of(data)
    assert UploadTask.objects.count() == 1


def test_a_part_refused_by_the_provider_fails_the_upload_and_resume_opens_it_again(
    manager_client, provider, sandbox_storage, in_parts
):
    data = pseudo_random_bytes(PART_SIZE + 3)
    upload = open_upload(manager_client, "refused.bin", len(data))
    provider.add_fault(service="storage", path="/in/refused.bin", method="PUT",
                       action="status", status=400,
                       body={"code": 40000000, "msg": "refused for the test", "id": "t"},
                       times=1)
    answer = send(manager_client, upload, 0, part(data, 0))
    assert answer.status_code == 502 and answer.json()["upload"]["state"] == "failed"
    assert "refused for the test" in answer.json()["error"]
    resumed = manager_client.post(upload["resume_url"], HTTP_ACCEPT="application/json")
    assert resumed.json()["state"] == "uploading"
    for n in (0, 1):
        assert send(manager_client, upload, n, part(data, n)).status_code == 200
    assert sandbox_storage.head("/in/refused.bin").md5 == md5_of(data)


def test_an_auditor_cannot_send_a_part(manager_client, auditor, provider):
    upload = open_upload(manager_client, "a.txt", 1)
    reader = Client()
    reader.force_login(auditor)
    assert send(reader, upload, 0, b"a").status_code == 403
    assert row(upload["id"])[0] == "uploading"
