"""Direct browser uploads, driven over HTTP as the page drives them: the back-office opens the
task and signs; every byte goes from the caller straight to the provider (the sandbox), which
takes what was signed and refuses what was not (scope: path, size, body, time)."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import timedelta

import pytest
import requests
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from backoffice.celery import collect_beat_schedule
from backoffice.models import AuditEntry
from console.models import Service
from console.services import default_service
from storage import services
from storage.client import MultipartNotFound
from storage.models import StoredFile, UploadTask
from storage.services.direct_uploads import MIB
from tests.storage.test_storage_upload_preprocessing import png

pytestmark = pytest.mark.django_db


@pytest.fixture
def direct(settings, provider):
    settings.STORAGE_BROWSER_UPLOAD_ROUTE = "direct"
    settings.STORAGE_RESUMABLE_THRESHOLD = MIB
    settings.STORAGE_DIRECT_PART_SIZE = MIB
    return default_service()


def open_upload(client, name: str, size: int, folder: str = "/direct", **fields):
    return client.post(reverse("storage:upload_create"), {
        "folder": folder, "name": name, "size": str(size), "content_type": "", **fields})


def post_json(client, url: str, body: object):
    return client.post(url, json.dumps(body), content_type="application/json")


def send(signed: dict, body: bytes = b"") -> requests.Response:
    return requests.request(signed["method"], signed["url"], headers=signed["headers"],
                            data=body, timeout=30)


def upload_in_parts(client, status: dict, data: bytes) -> dict:
    sign, report = status["sign_url"], status["report_url"]
    initiate = post_json(client, sign, {"stage": "initiate"}).json()["requests"][0]
    answer = send(initiate)
    assert answer.status_code == 204, answer.text
    post_json(client, report, {"uuid": answer.headers["x-svc-multi-uuid"]})
    size = status["part_size"]
    chunks = [data[i:i + size] for i in range(0, len(data), size)]
    signed = post_json(client, sign, {"stage": "upload", "parts": [
        {"id": n, "md5": hashlib.md5(chunk).hexdigest()} for n, chunk in enumerate(chunks)]})
    for entry in signed.json()["requests"]:
        assert send(entry, chunks[entry["part"]]).status_code == 204
    complete = post_json(client, sign, {"stage": "complete", "parts_done":
                                        list(range(len(chunks)))}).json()["requests"][0]
    assert send(complete).status_code in (201, 204)
    return post_json(client, report, {"done": True}).json()


def test_a_large_file_goes_straight_to_the_provider_in_signed_parts(direct, manager_client):
    data = os.urandom(2 * MIB + 123)
    opened = open_upload(manager_client, "big.bin", len(data))
    assert opened.status_code == 201
    status = opened.json()["upload"]
    assert (status["route"], status["method"], status["parts"]) == ("direct", "multipart", 3)
    finished = upload_in_parts(manager_client, status, data)
    assert finished["upload"]["state"] == "done"
    task = UploadTask.objects.get(pk=status["id"])
    assert (task.bytes_sent, task.md5) == (len(data), hashlib.md5(data).hexdigest())
    assert StoredFile.objects.filter(path="/direct/big.bin", size=len(data)).exists()
    assert AuditEntry.objects.filter(action="file.upload",
                                     object_id=f"/{direct.name}/direct/big.bin").exists()


def test_a_large_file_needs_three_requests_to_the_back_office_with_everything_riding_along(
        direct, manager_client):
    """The opening answers the initiate's signature, the uuid rides along with the parts'
    signing, and the completion's signature comes with the last parts."""
    data = os.urandom(2 * MIB + 5)
    opened = open_upload(manager_client, "along.bin", len(data)).json()
    status = opened["upload"]
    answer = send(opened["initiate"])
    assert answer.status_code == 204, answer.text
    chunks = [data[i:i + MIB] for i in range(0, len(data), MIB)]
    signed = post_json(manager_client, status["sign_url"], {
        "stage": "upload", "uuid": answer.headers["x-svc-multi-uuid"], "complete": True,
        "parts": [{"id": n, "md5": hashlib.md5(chunk).hexdigest()}
                  for n, chunk in enumerate(chunks)]}).json()
    assert UploadTask.objects.get(pk=status["id"]).uuid == answer.headers["x-svc-multi-uuid"]
    for entry in signed["requests"]:
        assert send(entry, chunks[entry["part"]]).status_code == 204
    assert send(signed["complete"]).status_code == 201
    finished = post_json(manager_client, status["report_url"], {"done": True}).json()
    assert finished["upload"]["state"] == "done"
    assert UploadTask.objects.get(pk=status["id"]).md5 == hashlib.md5(data).hexdigest()


def test_an_upload_taken_up_again_gets_no_second_initiate(direct, manager_client):
    data_size = 2 * MIB
    first = open_upload(manager_client, "again.bin", data_size).json()
    answer = send(first["initiate"])
    post_json(manager_client, first["upload"]["report_url"],
              {"uuid": answer.headers["x-svc-multi-uuid"]})
    again = open_upload(manager_client, "again.bin", data_size).json()
    assert again["upload"]["id"] == first["upload"]["id"] and "initiate" not in again
    assert again["upload"]["uuid"] == answer.headers["x-svc-multi-uuid"]


def test_a_uuid_riding_along_that_is_not_the_providers_is_400_naming_it(direct, manager_client):
    status = open_upload(manager_client, "bad-uuid.bin", 2 * MIB).json()["upload"]
    refused = post_json(manager_client, status["sign_url"], {
        "stage": "upload", "uuid": "not-a-task",
        "parts": [{"id": 0, "md5": hashlib.md5(b"x").hexdigest()}]})
    assert refused.status_code == 400 and refused.json()["field"] == "uuid"
    refused = post_json(manager_client, status["sign_url"], {
        "stage": "upload", "uuid": 12, "parts": [{"id": 0, "md5": "0" * 32}]})
    assert refused.status_code == 400 and refused.json()["field"] == "uuid"
    assert UploadTask.objects.get(pk=status["id"]).uuid == ""


def test_a_small_file_is_posted_with_a_policy_for_its_path_and_size(direct, manager_client):
    opened = open_upload(manager_client, "small.txt", 5).json()["upload"]
    assert opened["method"] == "form"
    grant = post_json(manager_client, opened["sign_url"], {"stage": "form"}).json()
    answer = requests.post(grant["url"], data=grant["fields"],
                           files={"file": ("small.txt", b"hello")}, timeout=30)
    assert answer.status_code == 200, answer.text
    assert post_json(manager_client, opened["report_url"],
                     {"done": True}).json()["upload"]["state"] == "done"


def test_a_policy_refuses_a_file_larger_than_the_task(direct, manager_client):
    opened = open_upload(manager_client, "small.txt", 5).json()["upload"]
    grant = post_json(manager_client, opened["sign_url"], {"stage": "form"}).json()
    answer = requests.post(grant["url"], data=grant["fields"],
                           files={"file": ("small.txt", b"hello world")}, timeout=30)
    assert (answer.status_code, answer.json()["code"]) == (403, 40300009)  # file too large


def test_a_part_signature_is_good_for_its_own_bytes_only(direct, manager_client):
    data = os.urandom(2 * MIB)
    status = open_upload(manager_client, "swap.bin", len(data)).json()["upload"]
    initiate = post_json(manager_client, status["sign_url"],
                         {"stage": "initiate"}).json()["requests"][0]
    uuid = send(initiate).headers["x-svc-multi-uuid"]
    post_json(manager_client, status["report_url"], {"uuid": uuid})
    signed = post_json(manager_client, status["sign_url"], {"stage": "upload", "parts": [
        {"id": 0, "md5": hashlib.md5(data[:MIB]).hexdigest()}]}).json()["requests"][0]
    other = send(signed, os.urandom(MIB))
    assert other.status_code == 400  # the body differs from the signed Content-MD5
    # Nor does the initiate's signature write a file at the path: it is for an empty body.
    assert send({**initiate, "headers": {k: v for k, v in initiate["headers"].items()
                                         if not k.startswith("x-svc-")}}, b"x").status_code == 400


def test_a_signature_is_refused_by_the_provider_once_its_lifetime_is_over(
        direct, manager_client, settings, sandbox):
    settings.STORAGE_DIRECT_SIGNATURE_LIFETIME_S = 60
    status = open_upload(manager_client, "late.bin", 2 * MIB).json()["upload"]
    initiate = post_json(manager_client, status["sign_url"],
                         {"stage": "initiate"}).json()["requests"][0]
    sandbox.advance(120)
    answer = send(initiate)
    assert answer.status_code == 401
    assert answer.json()["code"] == 40100002  # the date is too far from the provider's clock


def test_a_path_outside_the_services_folder_you_may_write_is_403(direct, manager_client):
    answer = open_upload(manager_client, "x.bin", 10, folder="/backoffice-private")
    assert answer.status_code == 403, answer.json()
    assert "folder" in answer.json()["errors"]
    assert not UploadTask.objects.filter(target_path__startswith="/backoffice-private").exists()


def test_a_size_over_the_limit_is_400_naming_the_field(direct, manager_client):
    answer = open_upload(manager_client, "huge.bin", 10_001 * 50 * MIB)
    assert answer.status_code == 400
    assert "size" in answer.json()["errors"]


def test_a_part_id_outside_the_file_is_400_naming_the_field(direct, manager_client):
    status = open_upload(manager_client, "p.bin", 2 * MIB).json()["upload"]
    post_json(manager_client, status["report_url"], {"uuid": "0" * 36})
    answer = post_json(manager_client, status["sign_url"],
                       {"stage": "upload", "parts": [{"id": 2, "md5": "0" * 32}]})
    assert answer.status_code == 400
    assert answer.json()["field"] == "parts"


def test_completion_is_believed_only_once_the_provider_holds_the_file(direct, manager_client):
    status = open_upload(manager_client, "never.bin", 2 * MIB).json()["upload"]
    answer = post_json(manager_client, status["report_url"], {"done": True})
    assert answer.status_code == 409
    assert UploadTask.objects.get(pk=status["id"]).state == "uploading"


def test_someone_without_the_right_to_upload_gets_no_signature(direct, manager_client,
                                                               auditor):
    status = open_upload(manager_client, "mine.bin", 2 * MIB).json()["upload"]
    other = Client()
    other.force_login(auditor)
    answer = post_json(other, status["sign_url"], {"stage": "initiate"})
    assert answer.status_code == 403
    assert not UploadTask.objects.filter(pk=status["id"]).exclude(uuid="").exists()


def quiet_for(task_id: int, seconds: float) -> None:
    UploadTask.objects.filter(pk=task_id).update(
        updated_at=timezone.now() - timedelta(seconds=seconds))


def test_an_unreported_upload_the_provider_holds_becomes_done(direct, manager_client):
    data = os.urandom(2 * MIB)
    status = open_upload(manager_client, "quiet.bin", len(data)).json()["upload"]
    sign = status["sign_url"]
    initiate = post_json(manager_client, sign, {"stage": "initiate"}).json()["requests"][0]
    post_json(manager_client, status["report_url"],
              {"uuid": send(initiate).headers["x-svc-multi-uuid"]})
    parts = [data[:MIB], data[MIB:]]
    for entry in post_json(manager_client, sign, {"stage": "upload", "parts": [
            {"id": n, "md5": hashlib.md5(p).hexdigest()} for n, p in enumerate(parts)]}
                           ).json()["requests"]:
        send(entry, parts[entry["part"]])
    send(post_json(manager_client, sign, {"stage": "complete"}).json()["requests"][0])
    quiet_for(status["id"], 600)  # the tab was closed before it reported
    assert services.reconcile_direct_uploads().done == 1
    task = UploadTask.objects.get(pk=status["id"])
    assert (task.state, task.md5) == ("done", hashlib.md5(data).hexdigest())


def test_an_upload_quiet_past_the_setting_is_abandoned_and_its_provider_task_cancelled(
        direct, manager_client, settings, sandbox_storage):
    settings.STORAGE_DIRECT_UPLOAD_ABANDON_S = 3600
    status = open_upload(manager_client, "gone.bin", 2 * MIB).json()["upload"]
    initiate = post_json(manager_client, status["sign_url"],
                         {"stage": "initiate"}).json()["requests"][0]
    uuid = send(initiate).headers["x-svc-multi-uuid"]
    post_json(manager_client, status["report_url"], {"uuid": uuid})
    quiet_for(status["id"], 1800)
    assert services.reconcile_direct_uploads().abandoned == 0  # not yet
    quiet_for(status["id"], 3700)
    assert services.reconcile_direct_uploads().abandoned == 1
    assert UploadTask.objects.get(pk=status["id"]).state == "abandoned"
    with pytest.raises(MultipartNotFound):  # the provider's task is gone with its parts
        sandbox_storage.send("PUT", "/direct/gone.bin", headers={
            "x-svc-multi-stage": "upload", "x-svc-multi-uuid": uuid, "x-svc-part-id": "0"},
            body=b"x" * MIB, idempotent=False)
    listing = manager_client.get(reverse("storage:uploads"), {"state": "abandoned"})
    assert "gone.bin" in listing.content.decode()


def test_the_reconciling_job_is_registered_with_beat():
    assert collect_beat_schedule()["storage-reconcile-direct-uploads"]["task"] == \
        "storage.tasks.reconcile_direct_uploads"


def test_a_form_upload_keeps_its_preprocessing_and_shows_the_theme_colours(
        direct, manager_client, sandbox_storage):
    data = png(40, 20)
    opened = open_upload(manager_client, "c.png", len(data), folder="/img",
                         extract_colours="on", extract_count="2")
    status = opened.json()["upload"]
    assert status["method"] == "form"
    grant = post_json(manager_client, status["sign_url"], {"stage": "form"}).json()
    answer = requests.post(grant["url"], data=grant["fields"],
                           files={"file": ("c.png", data)}, timeout=30)
    assert answer.status_code == 200, answer.text
    done = post_json(manager_client, status["report_url"],
                     {"done": True, "answer": answer.json()}).json()["upload"]
    assert done["state"] == "done"
    assert (done["result"]["width"], done["result"]["file_type"]) == (40, "PNG")
    assert [c["css"] for c in done["result"]["colours"]] == ["#c81e1e", "#1428dc"]
    assert sandbox_storage.head("/img/c.png").type == "file"


def test_an_upload_into_a_service_you_may_not_use_is_403_and_nothing_is_opened(
        direct, manager_client):
    team = Group.objects.create(name="Videos team")
    videos = Service.objects.create(name="videos-bucket", operator="o", operator_password="p")
    videos.groups.set([team])
    answer = open_upload(manager_client, "v.mp4", 10, service="videos-bucket")
    assert answer.status_code == 403
    assert not UploadTask.objects.exists()
