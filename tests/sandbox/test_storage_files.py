"""Plain files: upload, download, information, synchronous delete, and their refusals."""

from __future__ import annotations

import hashlib
import http.client
import json
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from tests.sandbox.test_storage_client import StorageClient, assert_error


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def test_an_uploaded_file_downloads_byte_for_byte(storage):
    body = bytes(range(256)) * 4096  # 1 MiB of every byte value
    assert storage.put("/docs/blob.bin", body).status_code == 200
    response = storage.get("/docs/blob.bin")
    assert response.status_code == 200
    assert response.content == body
    assert response.headers["Content-Length"] == str(len(body))
    assert response.headers["Content-Md5"] == hashlib.md5(body).hexdigest()


def test_the_content_type_defaults_from_the_extension(storage):
    storage.put("/types/page.html", b"<p>hi</p>")
    storage.put("/types/photo.jpg", b"not really a jpeg")
    storage.put("/types/no-extension", b"?")
    assert storage.get("/types/page.html").headers["Content-Type"] == "text/html"
    assert storage.get("/types/photo.jpg").headers["Content-Type"] == "image/jpeg"
    assert storage.get("/types/no-extension").headers["Content-Type"] == \
        "application/octet-stream"


def test_a_given_content_type_is_kept(storage):
    storage.put("/types/data.txt", b"{}", headers={"Content-Type": "application/json"})
    assert storage.get("/types/data.txt").headers["Content-Type"] == "application/json"


def test_head_describes_a_file(storage, sandbox):
    before = int(sandbox.now())
    storage.put("/info/a.txt", b"12345")
    response = storage.head("/info/a.txt")
    assert response.status_code == 200
    assert response.headers["x-svc-file-type"] == "file"
    assert response.headers["x-svc-file-size"] == "5"
    assert before <= int(response.headers["x-svc-file-date"]) <= before + 5
    assert response.headers["Content-Md5"] == hashlib.md5(b"12345").hexdigest()
    assert response.content == b""


def test_head_describes_a_folder(storage):
    storage.put("/info/deep/a.txt", b"x")
    response = storage.head("/info/deep")
    assert response.headers["x-svc-file-type"] == "folder"
    assert response.headers["x-svc-file-size"] == "0"


def test_an_upload_creates_the_folders_above_it(storage):
    assert storage.put("/one/two/three/file.txt", b"x").status_code == 200
    for folder in ("/one", "/one/two", "/one/two/three"):
        assert storage.head(folder).headers["x-svc-file-type"] == "folder"


def test_a_matching_content_md5_is_accepted(storage):
    body = b"checked"
    response = storage.put("/md5/ok.txt", body,
                           headers={"Content-MD5": hashlib.md5(body).hexdigest().upper()})
    assert response.status_code == 200


def test_a_wrong_content_md5_is_refused_and_nothing_is_stored(storage):
    response = storage.put("/md5/bad.txt", b"checked",
                           headers={"Content-MD5": hashlib.md5(b"other").hexdigest()})
    assert_error(response, 40001001)
    assert storage.head("/md5/bad.txt").status_code == 404


def test_an_empty_content_md5_is_not_checked(storage):
    assert storage.put("/md5/empty.txt", b"big file", headers={"Content-MD5": ""}).status_code \
        == 200


def test_metadata_comes_back_as_headers(storage):
    storage.put("/meta/a.txt", b"x", headers={"x-svc-meta-Owner": "alice",
                                              "x-svc-meta-project": "p1"})
    for response in (storage.get("/meta/a.txt"), storage.head("/meta/a.txt")):
        assert response.headers["x-svc-meta-owner"] == "alice"
        assert response.headers["x-svc-meta-project"] == "p1"


def test_the_content_secret_is_stored_as_metadata(storage):
    storage.put("/secret/a.jpg", b"x", headers={"Content-Secret": "s3cr3T"})
    assert storage.head("/secret/a.jpg").headers["x-svc-meta-secret"] == "s3cr3T"


@pytest.mark.parametrize("secret", ["with space", "dash-ed", "ünï", "a_b"])
def test_a_content_secret_outside_letters_and_digits_is_refused(storage, secret):
    response = storage.put("/secret/b.jpg", b"x",
                           headers={"Content-Secret": secret.encode().decode("latin-1")})
    assert_error(response, 40300016)
    assert storage.head("/secret/b.jpg").status_code == 404


def test_an_upload_replaces_a_file(storage):
    storage.put("/over/a.txt", b"first", headers={"x-svc-meta-v": "1"})
    storage.put("/over/a.txt", b"second version")
    response = storage.get("/over/a.txt")
    assert response.content == b"second version"
    assert "x-svc-meta-v" not in response.headers  # a new upload is a new file
    assert storage.get("/", query="usage").text == str(len(b"second version"))


def test_a_file_cannot_replace_a_folder(storage):
    storage.mkdir("/clash")
    assert "is a folder" in assert_error(storage.put("/clash", b"x"), 40600001)["detail"]


def test_a_file_cannot_live_under_a_file(storage):
    storage.put("/plain.txt", b"x")
    assert_error(storage.put("/plain.txt/inner.txt", b"y"), 40600001)


def test_a_file_needs_a_name(storage):
    assert_error(storage.put("/", b"x"), 40001000)


def test_a_name_with_a_control_character_is_refused(storage):
    assert "control" in assert_error(storage.put("/bad\nname.txt", b"x"), 40300001)["detail"]


def test_a_download_of_a_missing_file_is_not_found(storage):
    assert_error(storage.get("/missing.txt"), 40400001)
    assert storage.head("/missing.txt").status_code == 404


def test_a_delete_removes_the_file(storage):
    storage.put("/gone/a.txt", b"x")
    assert storage.delete("/gone/a.txt").status_code == 200
    assert_error(storage.get("/gone/a.txt"), 40400001)
    assert storage.get("/", query="usage").text == "0"


def test_a_delete_of_a_missing_file_is_not_found(storage):
    assert_error(storage.delete("/nothing-here.txt"), 40400001)


def test_an_unsupported_method_is_refused(storage):
    body = assert_error(storage.request("OPTIONS", "/x.txt"), 40000000)
    assert "method OPTIONS is not allowed" in body["detail"]


def test_a_put_without_content_length_is_refused(storage):
    uri = storage.uri("/nolength.txt")
    headers = {"Date": storage.date()}
    headers["Authorization"] = storage.authorization("PUT", uri, headers, 0, "current", None,
                                                     None)
    target = urlsplit(storage.base)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    connection.putrequest("PUT", uri)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 403
    assert json.loads(response.read())["code"] == 40300026
    connection.close()


def test_an_injected_fault_answers_instead_of_the_service(storage, sandbox):
    sandbox.add_fault(service="storage", path="/faulty", action="status", status=503, times=1,
                      body={"msg": "write hub failed", "code": 50300001, "id": "x"})
    assert_error(storage.get("/faulty.txt"), 50300001)
    assert_error(storage.get("/faulty.txt"), 40400001)


def test_parallel_uploads_into_one_new_folder_all_land(storage):
    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda n: storage.put(f"/race/f{n}.txt", b"x").status_code,
                              range(40)))
    assert codes == [200] * 40
    listed = storage.get("/race", headers={"x-list-limit": "100"}).text.splitlines()
    assert len(listed) == 40
    assert time.monotonic() - started < 30

