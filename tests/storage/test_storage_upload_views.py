"""The upload endpoints of the file browser: the pre-flight check, opening a browser upload
(nothing kept locally), progress JSON, Resume and Discard, and the uploads page. The parts
themselves: test_storage_browser_part_uploads.py."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from storage.models import UploadTask
from storage.resumable import PART_SIZE
from tests.storage.conftest import queue_upload

pytestmark = pytest.mark.django_db

CREATE = reverse("storage:upload_create")
CHECK = reverse("storage:upload_check")


def local_copies(media_root) -> list:
    folder = media_root / "uploads"
    return sorted(folder.iterdir()) if folder.exists() else []


def test_opening_an_upload_keeps_nothing_locally_and_queues_nothing(
    manager_client, provider, media_root, django_capture_on_commit_callbacks, through_backoffice
):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = manager_client.post(CREATE, {
            "folder": "/inbox", "name": "report.pdf", "size": "13",
            "content_type": "application/pdf"})
    assert response.status_code == 201, response.content
    status = response.json()["upload"]
    task = UploadTask.objects.get(pk=status["id"])
    assert (task.target_path, task.size, task.source, task.direct) == (
        "/inbox/report.pdf", 13, "", True)
    assert task.created_by is not None
    assert task.content_type == "application/pdf" and task.created_by.username == "content-manager"
    assert local_copies(media_root) == [] and queued == []
    assert status["state"] == "uploading" and status["next_part"] == 0
    assert status["part_url"].endswith(f"/uploads/{task.pk}/parts/")


def test_preprocessing_options_are_validated_and_stored_with_the_upload(manager_client, provider,
                                                                        media_root):
    response = manager_client.post(CREATE, {
        "folder": "/img", "thumb_type": "fix_both", "thumb_value": "100x50", "quality": "80",
        "rotate": "90", "crop": "10x10a0a0", "exif_switch": "on", "watermark_text": "版权 2026",
        "watermark_font": "simhei", "watermark_size": "20", "watermark_align": "bottom,right",
        "watermark_margin": "5,5", "watermark_opacity": "40", "watermark_color": "#ffffff",
        "watermark_border": "#00000080", "ttl_days": "90", "name": "a.png", "size": "16"})
    assert response.status_code == 201, response.content
    task = UploadTask.objects.get()
    assert task.options["ttl_days"] == 90
    assert task.options["gmkerl"] == {
        "x-gmkerl-type": "fix_both", "x-gmkerl-value": "100x50", "x-gmkerl-quality": "80",
        "x-gmkerl-rotate": "90", "x-gmkerl-crop": "10x10a0a0", "x-gmkerl-exif-switch": "true",
        "x-gmkerl-watermark-text": "%E7%89%88%E6%9D%83%202026",
        "x-gmkerl-watermark-font": "simhei", "x-gmkerl-watermark-size": "20",
        "x-gmkerl-watermark-align": "bottom,right", "x-gmkerl-watermark-margin": "5,5",
        "x-gmkerl-watermark-opacity": "40", "x-gmkerl-watermark-color": "#ffffff",
        "x-gmkerl-watermark-border": "#00000080",
    }


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"quality": "101"}, "quality", "Quality must be a whole number from 1 to 100."),
        ({"thumb_type": "fix_both", "thumb_value": "100"}, "thumb_value",
         "For this thumbnail type the value must be <width>x<height>"),
        ({"thumb_type": "fix_scale", "thumb_value": "2000"}, "thumb_value",
         "For fix_scale the value must be a whole percentage from 1 to 1000."),
        ({"thumb_value": "100"}, "thumb_type", "Choose a thumbnail type for this value."),
        ({"thumb_type": "fix_width"}, "thumb_value", "Give a value for the thumbnail type."),
        ({"rotate": "0"}, "rotate", "Rotation must be “auto” or a number of degrees"),
        ({"crop": "10x10"}, "crop", "Crop must look like <width>x<height>a<x>a<y>"),
        ({"watermark_text": "hi", "watermark_size": "0"}, "watermark_size",
         "Watermark size must be a whole number of pixels, at least 1."),
        ({"watermark_text": "hi", "watermark_margin": "5"}, "watermark_margin",
         "Watermark margin must be x,y"),
        ({"watermark_text": "hi", "watermark_opacity": "101"}, "watermark_opacity",
         "Watermark opacity must be a whole number from 0 to 100."),
        ({"watermark_text": "hi", "watermark_color": "red"}, "watermark_color",
         "Watermark colour must look like #RRGGBB"),
        ({"watermark_text": "hi", "watermark_border": "#fff"}, "watermark_border",
         "Watermark border must look like #RRGGBBAA"),
        ({"watermark_text": "hi", "watermark_font": "comic"}, "watermark_font",
         "Select a valid choice."),
        ({"watermark_align": "top,left"}, "watermark_text",
         "Give a watermark text, or clear the watermark settings."),
        ({"ttl_days": "0"}, "ttl_days", "The lifetime (TTL) must be a whole number of days"),
        ({"folder": "/a/../b"}, "folder", "The path must not contain “.” or “..” as a name."),
    ],
)
def test_bad_options_are_refused_naming_the_field_and_nothing_is_kept(
    manager_client, provider, media_root, fields, field, message
):
    response = manager_client.post(CREATE, {"folder": "/x", **fields,
                                            "name": "a.png", "size": "4"})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(message in text for text in errors[field]), errors
    assert not UploadTask.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"size": "4"}, "name", "Choose a file to upload."),
        ({"name": "a.txt"}, "size", "The file size must be a whole number of bytes."),
        ({"name": "a.txt", "size": "-3"}, "size", "The file size must be a whole number"),
        ({"name": "..", "size": "3"}, "name", "“.” or “..”"),
    ],
)
def test_an_upload_without_a_good_name_or_size_is_refused_naming_the_field(
    manager_client, provider, fields, field, message
):
    response = manager_client.post(CREATE, {"folder": "/x", **fields})
    assert response.status_code == 400
    assert any(message in text for text in response.json()["errors"][field])
    assert not UploadTask.objects.exists()


def test_an_upload_without_the_csrf_token_is_refused_and_nothing_is_kept(manager, provider,
                                                                         media_root):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(manager)
    response = strict.post(CREATE, {"folder": "/x", "name": "a.txt", "size": "1"})
    assert response.status_code == 403
    assert not UploadTask.objects.exists()


def test_an_auditor_cannot_upload_and_nothing_is_kept(auditor_client, provider, media_root):
    response = auditor_client.post(CREATE, {"folder": "/x", "name": "a.txt", "size": "1"})
    assert response.status_code == 403
    assert not UploadTask.objects.exists()
    assert auditor_client.post(CHECK, {"folder": "/x", "name": "a.txt"}).status_code == 403


def test_the_check_names_existing_files_and_the_way_each_file_goes(manager_client, provider,
                                                                   sandbox_storage, settings):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    sandbox_storage.upload("/in/old.txt", io.BytesIO(b"old"))
    sandbox_storage.create_folder("/in/taken")
    response = manager_client.post(CHECK, {
        "folder": "/in", "name": ["old.txt", "new.bin", "taken", ".."],
        "size": ["3", str(PART_SIZE + 1), "1", "1"]})
    assert response.status_code == 200
    files = {entry["name"]: entry for entry in response.json()["files"]}
    assert files["old.txt"]["exists"] and files["old.txt"]["path"] == "/in/old.txt"
    assert not files["new.bin"]["exists"] and files["new.bin"]["resumable"]
    assert not files["old.txt"]["resumable"]
    assert "A folder named taken is already there." in files["taken"]["error"]
    assert "“.” or “..”" in files[".."]["error"]
    assert response.json()["ok"] is False


def test_a_file_name_with_a_text_direction_character_is_refused_naming_the_field(
        manager_client, provider):
    refusal = ("The file name must not contain control or text-direction characters (U+202E): "
               "they make a name show differently from what it is.")
    bidi = "名前\u202egnp.exe"
    opened = manager_client.post(CREATE, {"folder": "/in", "name": bidi, "size": "3"})
    assert opened.status_code == 400 and opened.json()["errors"]["name"] == [refusal]
    assert not UploadTask.objects.exists()
    checked = manager_client.post(CHECK, {"folder": "/in", "name": [bidi, "ok.txt"],
                                          "size": ["3", "3"]})
    files = {entry["name"]: entry for entry in checked.json()["files"]}
    assert files[bidi]["error"] == refusal and files[bidi]["path"] is None
    assert files["ok.txt"]["error"] == "" and checked.json()["ok"] is False


def test_the_check_refuses_bad_options_before_any_file_is_sent(manager_client, provider):
    response = manager_client.post(CHECK, {"folder": "/in", "name": "a.png", "size": "5",
                                           "quality": "0"})
    assert response.status_code == 400
    assert "quality" in response.json()["errors"]


def test_preprocessing_keeps_a_large_image_in_one_request(manager_client, provider, settings):
    settings.STORAGE_RESUMABLE_THRESHOLD = 10
    response = manager_client.post(CHECK, {"folder": "/in", "name": "a.png", "size": "5000",
                                           "quality": "80"})
    assert response.json()["files"][0]["resumable"] is False


def test_the_status_endpoint_reports_progress(manager_client, provider, media_root):
    task = queue_upload(b"x" * 1000, "/s/a.bin")
    UploadTask.objects.filter(pk=task.pk).update(state="uploading", bytes_sent=250)
    status = manager_client.get(reverse("storage:upload_status", args=[task.pk])).json()
    assert (status["state"], status["percent"], status["bytes_sent"]) == ("uploading", 25, 250)
    assert status["can_resume"] is False


def test_resume_and_discard_answer_json_for_the_page(manager_client, provider, media_root,
                                                     django_capture_on_commit_callbacks):
    task = queue_upload(b"x", "/s/b.bin")
    resume = reverse("storage:upload_resume", args=[task.pk])
    headers = {"HTTP_ACCEPT": "application/json"}
    assert manager_client.post(resume, **headers).status_code == 409  # not failed
    UploadTask.objects.filter(pk=task.pk).update(state="failed", error="boom")
    with django_capture_on_commit_callbacks(execute=False) as queued:
        answer = manager_client.post(resume, **headers)
    assert answer.status_code == 200 and answer.json()["state"] == "queued"
    assert len(queued) == 1
    discard = manager_client.post(reverse("storage:upload_cancel", args=[task.pk]),
                                  {"confirmed": "1"}, **headers)
    assert discard.json()["state"] == "cancelled"


def test_an_auditor_sees_uploads_but_cannot_resume_them(auditor_client, provider, media_root):
    task = queue_upload(b"x", "/s/c.bin")
    UploadTask.objects.filter(pk=task.pk).update(state="failed", error="boom")
    page = auditor_client.get(reverse("storage:uploads")).content.decode()
    assert "/s/c.bin" in page and "data-resume>" not in page and "data-resume " not in page
    assert auditor_client.get(reverse("storage:upload_status", args=[task.pk])).status_code == 200
    assert auditor_client.post(reverse("storage:upload_resume", args=[task.pk])).status_code == 403
    assert UploadTask.objects.get(pk=task.pk).state == "failed"


def test_the_uploads_page_filters_by_state(manager_client, provider, media_root):
    queue_upload(b"1", "/f/one.bin")
    failed = queue_upload(b"2", "/f/two.bin")
    UploadTask.objects.filter(pk=failed.pk).update(state="failed")
    page = manager_client.get(reverse("storage:uploads"), {"state": "failed"}).content.decode()
    assert "/f/two.bin" in page and "/f/one.bin" not in page
    config = json.loads(page.split('id="storage-config" type="application/json">')[1]
                        .split("</script>")[0])
    assert config["texts"]["resume"] == "Resume"


def test_a_file_above_the_providers_limit_is_refused_and_not_kept(manager_client, provider,
                                                                  media_root, monkeypatch):
    # The real limit is 10,000 parts of 1 MiB; a small one stands in for it here.
    monkeypatch.setattr("storage.views.uploads.MAX_UPLOAD_BYTES", 100_000)
    response = manager_client.post(CREATE, {"folder": "/x", "name": "huge.bin",
                                            "size": "300000"})
    assert response.status_code == 400
    assert response.json()["errors"]["size"] == [
        "huge.bin is larger than 97.7 KiB, the most the provider takes in one file."]
    assert not UploadTask.objects.exists()
    check = manager_client.post(CHECK, {"folder": "/x", "name": "huge.bin", "size": "300000"})
    assert "larger than" in check.json()["files"][0]["error"]
