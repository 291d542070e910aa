"""The upload page offers the API's preprocessing: a thumbnail version or processing string
(`x-gmkerl-thumb`), the sharpening switch (`x-gmkerl-unsharp`) and theme-colour extraction,
whose result is kept on the upload and shown. Against the real sandbox."""

from __future__ import annotations

import io
import json

import pytest
import requests
from django.urls import reverse
from PIL import Image

from storage import rules
from storage.client import StorageProtocolError
from storage.models import UploadTask
from storage.services import UploadOptions
from tests.storage.conftest import queue_upload
from tests.storage.test_storage_browser_part_uploads import send

pytestmark = pytest.mark.django_db

CREATE = reverse("storage:upload_create")


def png(width: int = 40, height: int = 20) -> bytes:
    buffer = io.BytesIO()
    image = Image.new("RGB", (width, height), (200, 30, 30))
    image.paste((20, 40, 220), (0, 0, width // 4, height))
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def test_the_new_options_become_their_headers(manager_client, provider, media_root):
    response = manager_client.post(CREATE, {
        "folder": "/img", "name": "a.png", "size": "16", "thumb": "small/fw/300",
        "unsharp": "false", "extract_colours": "on", "extract_count": "8",
        "extract_format": "dec"})
    assert response.status_code == 201, response.content
    assert UploadTask.objects.get().options["gmkerl"] == {
        "x-gmkerl-thumb": "small/fw/300", "x-gmkerl-unsharp": "false",
        "x-gmkerl-extract-format": "dec", "x-gmkerl-extract-color-count": "8"}


def test_extraction_ticked_alone_asks_for_hex_colours(manager_client, provider, media_root):
    manager_client.post(CREATE, {"folder": "/img", "name": "a.png", "size": "16",
                                 "extract_colours": "on"})
    assert UploadTask.objects.get().options["gmkerl"] == {"x-gmkerl-extract-format": "hex"}


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"extract_colours": "on", "extract_count": "4097"}, "extract_count",
     "Colour count must be a whole number from 1 to 4096."),
    ({"extract_count": "8"}, "extract_count",
     "Tick “Extract theme colours”, or clear the number of colours."),
    ({"thumb": "/fw/300 /format/png"}, "thumb", "Processing parameters must not contain spaces."),
    ({"unsharp": "maybe"}, "unsharp", "Select a valid choice."),
])
def test_bad_preprocessing_options_are_refused_naming_the_field(manager_client, provider,
                                                               media_root, fields, field,
                                                               message):
    response = manager_client.post(CREATE, {"folder": "/img", "name": "a.png", "size": "16",
                                            **fields})
    assert response.status_code == 400
    assert any(message in text for text in response.json()["errors"][field])
    assert not UploadTask.objects.exists()


def test_the_back_office_and_the_provider_take_the_same_colour_formats():
    assert rules.EXTRACT_FORMATS == ("hex", "dec")
    assert rules.check_gmkerl({"x-gmkerl-extract-format": "rgb"})
    assert not rules.check_gmkerl({"x-gmkerl-extract-color-count": "4096"})


def test_a_browser_upload_keeps_and_shows_its_theme_colours(manager_client, provider,
                                                           media_root, through_backoffice):
    data = png()
    response = manager_client.post(CREATE, {"folder": "/img", "name": "c.png",
                                            "size": str(len(data)), "extract_colours": "on",
                                            "extract_count": "2"})
    upload = response.json()["upload"]
    answer = send(manager_client, upload, 0, data)
    assert answer.status_code == 200, answer.content
    colours = answer.json()["upload"]["result"]["colours"]
    assert [(colour["value"], colour["css"]) for colour in colours] == [
        ("0xc81e1e", "#c81e1e"), ("0x1428dc", "#1428dc")]
    page = manager_client.get(reverse("storage:uploads") + "?service=" + provider.info[
        "storage"]["bucket"])
    assert 'data-colour="#c81e1e"' in page.content.decode()


def test_a_processing_string_is_applied_by_the_provider(manager_client, provider, media_root,
                                                        sandbox_storage, through_backoffice):
    data = png(40, 20)
    upload = manager_client.post(CREATE, {"folder": "/img", "name": "t.png",
                                          "size": str(len(data)),
                                          "thumb": "/fw/20/format/jpg"}).json()["upload"]
    answer = send(manager_client, upload, 0, data).json()["upload"]
    assert answer["state"] == "done", answer
    assert (answer["result"]["width"], answer["result"]["file_type"]) == (20, "JPEG")
    stored = io.BytesIO()
    sandbox_storage.download("/img/t.png", stored)
    assert Image.open(stored).format == "JPEG"


def test_a_queued_upload_keeps_the_colours_in_decimal(provider, media_root, sandbox_storage):
    from storage.services import run_upload

    task = queue_upload(png(), "/img/q.png", options=UploadOptions(gmkerl={
        "x-gmkerl-extract-color-count": "2", "x-gmkerl-extract-format": "dec"}))
    run_upload(task.pk)
    task.refresh_from_db()
    assert task.state == "done", task.error
    assert [colour["value"] for colour in task.result["colours"]] == [
        str((200 << 16) | (30 << 8) | 30), str((20 << 16) | (40 << 8) | 220)]


def test_the_client_reads_the_colours_and_refuses_a_bad_answer(sandbox_storage):
    result = sandbox_storage.upload("/img/r.png", io.BytesIO(png()), gmkerl={
        "extract-format": "hex", "extract-color-count": "1"})
    assert result.colours is not None and len(result.colours) == 1
    from storage.client.answers import parse_theme_colours

    def answer(body: object) -> requests.Response:
        response = requests.Response()
        response.status_code = 200
        response.headers["Content-Type"] = "application/json"
        response._content = json.dumps(body).encode()
        return response

    with pytest.raises(StorageProtocolError):
        parse_theme_colours(answer({"colors": [{"color": "red", "count": 1}]}))
    with pytest.raises(StorageProtocolError):
        parse_theme_colours(answer({"colors": "none"}))
    assert parse_theme_colours(answer({"other": 1})) is None
