"""The FORM API's `apps` (api/form_api.md "异步预处理", cloud/image.md "上传预处理（异步）") at
the sandbox: thumb tasks run after the upload, save their result to `save_as` (opened with
Pillow), call their `notify_url` with the page's JSON, signed; bad apps are refused with their
errno.md code and nothing is stored."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import time
from urllib.parse import parse_qsl, urlsplit

import pytest
import requests
from PIL import Image

from tests.sandbox.form_support import FormClient
from tests.sandbox.test_storage_client import StorageClient, md5_hex


@pytest.fixture
def form(sandbox):
    return FormClient(sandbox)


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def jpeg(width: int = 600, height: int = 400) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format="JPEG")
    return buffer.getvalue()


def stored_image(storage: StorageClient, path: str) -> Image.Image:
    deadline = time.monotonic() + 15
    response = storage.get(path)
    while response.status_code == 404 and time.monotonic() < deadline:
        time.sleep(0.2)
        response = storage.get(path)
    assert response.status_code == 200, f"{path} never appeared"
    return Image.open(io.BytesIO(response.content))


def calls(origin, count: int) -> list:
    deadline = time.monotonic() + 15
    while len(origin.requests) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(origin.requests) >= count, origin.requests
    return origin.requests


def refusal(response: requests.Response, code: int, msg: str) -> dict:
    assert response.status_code == code // 100000, response.text
    body = response.json()
    assert (body["code"], body["msg"]) == (code, msg), body
    assert body["detail"]
    return body


def test_the_pages_example_task_saves_its_result_and_calls_back_signed(form, storage,
                                                                       origin_server):
    origin_server.page("/notify", b"ok")
    apps = [{"name": "thumb", "x-gmkerl-thumb": "/fw/300/quality/95",
             "save_as": "/path/to/fw_300.jpg",
             "notify_url": f"{origin_server.address}/notify"}]
    answer = form.post(form.policy("/form/original.jpg", apps=apps), jpeg(), "a.jpg")
    assert answer.status_code == 200, answer.text
    [task_id] = answer.json()["task_ids"]
    assert len(task_id) == 32
    assert Image.open(io.BytesIO(storage.get("/form/original.jpg").content)).size == (600, 400)
    result = stored_image(storage, "/path/to/fw_300.jpg")
    assert (result.format, result.size) == ("JPEG", (300, 200))
    [call] = calls(origin_server, 1)
    assert call.method == "POST" and call.path == "/notify"
    assert json.loads(call.body) == {
        "task_id": task_id, "service": form.bucket, "status_code": 200,
        "imginfo": {"path": "/path/to/fw_300.jpg", "type": "jpg", "width": 300,
                    "height": 200, "frames": 1}}
    assert call.headers["Content-MD5"] == hashlib.md5(call.body).hexdigest()
    text = f"POST&/notify&{call.headers['Date']}&{call.headers['Content-MD5']}"
    key = md5_hex(form.password).encode()
    signature = base64.b64encode(hmac.new(key, text.encode(), hashlib.sha1).digest()).decode()
    assert call.headers["Authorization"] == f"SVC {form.operator}:{signature}"


def test_a_task_without_notify_url_calls_the_policys_after_the_uploads_own(form, storage,
                                                                          origin_server):
    origin_server.page("/n", b"ok")
    apps = json.dumps([{"name": "thumb", "x-gmkerl-thumb": "/format/png",
                        "save_as": "/{filename}.{suffix}.png"}])  # a JSON string works too
    answer = form.post(form.policy("/form/b.jpg", apps=apps,
                                   **{"notify-url": f"{origin_server.address}/n"}), jpeg(), "b.jpg")
    assert answer.status_code == 200, answer.text
    assert stored_image(storage, "/b.jpg.png").format == "PNG"
    bodies = [call.body for call in calls(origin_server, 2)]
    upload = dict(parse_qsl(next(body for body in bodies if body.startswith(b"code=")).decode()))
    assert json.loads(upload["task_ids"]) == answer.json()["task_ids"]
    task = json.loads(next(body for body in bodies if body.startswith(b"{")))
    assert task["status_code"] == 200 and task["imginfo"]["type"] == "png"


def test_the_return_url_carries_the_task_ids(form):
    apps = [{"name": "thumb", "x-gmkerl-thumb": "/fw/10"}]
    answer = form.post(form.policy("/form/r.jpg", apps=apps,
                                   **{"return-url": "http://example.com/back"}), jpeg(), "r.jpg")
    assert answer.status_code == 302
    query = dict(parse_qsl(urlsplit(answer.headers["Location"]).query))
    assert len(json.loads(query["task_ids"])) == 1


def test_split_saves_each_block_with_its_row_and_column(form, storage, sandbox):
    apps = [{"name": "thumb", "x-gmkerl-thumb": "/fw/300/format/png",
             "x-gmkerl-split": "200x100", "save_as": "/blocks/{row}-{column}-{seq}.png"}]
    answer = form.post(form.policy("/form/s.jpg", apps=apps), jpeg(), "s.jpg")
    [task_id] = answer.json()["task_ids"]
    last = stored_image(storage, "/blocks/1-1-3.png")
    assert last.size == (100, 100)  # the 300x200 result less two blocks of 200 a row
    assert stored_image(storage, "/blocks/0-0-0.png").size == (200, 100)
    [task] = [item for item in sandbox.control("GET", "/storage/tasks").json()["tasks"]
              if item["task_id"] == task_id]
    places = [(info["row"], info["column"], info["path"]) for info in
              task["outcome"]["imginfos"]]
    assert places == [(0, 0, "/blocks/0-0-0.png"), (0, 1, "/blocks/0-1-1.png"),
                      (1, 0, "/blocks/1-0-2.png"), (1, 1, "/blocks/1-1-3.png")]


def test_without_save_as_the_result_goes_beside_the_original(form, storage):
    answer = form.post(form.policy("/form/d.jpg", apps=[{"name": "thumb",
                                                         "x-gmkerl-thumb": "/format/webp"}]),
                       jpeg(), "d.jpg")
    [task_id] = answer.json()["task_ids"]
    assert stored_image(storage, f"/form/d.jpg-{task_id}.webp").format == "WEBP"


def test_a_task_that_fails_reports_its_error_in_the_callback(form, origin_server):
    origin_server.page("/n", b"ok")
    apps = [{"name": "thumb", "x-gmkerl-thumb": "/fw/10", "save_as": "/x.jpg",
             "notify_url": f"{origin_server.address}/n"},
            {"name": "thumb", "x-gmkerl-thumb": "nosuchversion", "save_as": "/y.jpg",
             "notify_url": f"{origin_server.address}/n"}]
    answer = form.post(form.policy("/form/note.txt", apps=apps), b"not an image")
    assert answer.status_code == 200, answer.text
    outcomes = sorted((json.loads(call.body) for call in calls(origin_server, 2)),
                      key=lambda outcome: outcome["status_code"])
    assert [outcome["status_code"] for outcome in outcomes] == [404, 405]
    assert "no thumb setting found for bucket" in outcomes[0]["error"]
    assert "not an image" in outcomes[1]["error"]


@pytest.mark.parametrize(("apps", "code", "msg", "named"), [
    ([{"name": "watermark", "x-gmkerl-thumb": "/fw/10"}], 40011050, "invalid app name",
     "watermark"),
    ([{"x-gmkerl-thumb": "/fw/10"}], 40011050, "invalid app name", "no name"),
    ([{"name": "naga", "type": "video"}], 40000000, "storage bad request", "naga"),
    ([{"name": "thumb"}], 40010001, "not enough arguments", "x-gmkerl-thumb"),
    ([{"name": "thumb", "x-gmkerl-thumb": "/fw/0"}], 40011035, "invalid param in thumb", "fw"),
    ([{"name": "thumb", "x-gmkerl-thumb": "/fw/10", "saveas": "/a"}], 40000000,
     "storage bad request", "saveas"),
    ([{"name": "thumb", "x-gmkerl-thumb": "/fw/10", "save_as": "/{nope}"}], 40000000,
     "storage bad request", "{nope}"),
    ([{"name": "thumb", "x-gmkerl-thumb": "/fw/10", "x-gmkerl-split": "2x2",
       "save_as": "/one.jpg"}], 40000000, "storage bad request", "{seq}"),
    ([], 40010003, "tasks number error", "0 tasks"),
    ([{"name": "thumb", "x-gmkerl-thumb": "/fw/10"}] * 11, 40010003, "tasks number error",
     "11 tasks"),
    ("not json", 40010033, "decode tasks error", "JSON"),
    ({"name": "thumb"}, 40010033, "decode tasks error", "array"),
])
def test_bad_apps_are_refused_and_nothing_is_stored(form, storage, apps, code, msg, named):
    body = refusal(form.post(form.policy("/form/refused.jpg", apps=apps), jpeg(), "r.jpg"),
                   code, msg)
    assert named in body["detail"], body
    assert storage.head("/form/refused.jpg").status_code == 404
