"""Copy and move: a PUT with `x-svc-copy-source` / `x-svc-move-source` (DECISIONS.md, errno
40000040-40000044), with the metadata directive, and every refusal with its code."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

from tests.sandbox.test_storage_client import StorageClient, assert_error

COPY, MOVE = "x-svc-copy-source", "x-svc-move-source"


@pytest.fixture
def storage(sandbox):
    client = StorageClient(sandbox)
    client.put("/src/a.txt", b"original", headers={"x-svc-meta-owner": "ann",
                                                   "Content-Type": "text/plain"})
    return client


def source(storage, path="/src/a.txt", bucket=None):
    return f"/{bucket or storage.bucket}{path}"


def meta(response):
    return {name.lower(): value for name, value in response.headers.items()
            if name.lower().startswith("x-svc-meta-")}


def test_a_copy_has_the_content_type_and_metadata_of_its_source(storage):
    assert storage.put("/dst/b.txt", headers={COPY: source(storage)}).status_code == 200
    copied = storage.get("/dst/b.txt")
    assert copied.content == b"original"
    assert copied.headers["Content-Type"].startswith("text/plain")
    assert meta(copied) == {"x-svc-meta-owner": "ann"}
    assert storage.get("/src/a.txt").content == b"original"
    assert storage.get("/", query="usage").text == str(2 * len(b"original"))


def test_a_copy_with_replace_takes_the_requests_metadata(storage):
    response = storage.put("/dst/c.txt", headers={COPY: source(storage),
                                                  "x-svc-metadata-directive": "replace",
                                                  "x-svc-meta-team": "ops"})
    assert response.status_code == 200, response.text
    assert meta(storage.head("/dst/c.txt")) == {"x-svc-meta-team": "ops"}
    assert meta(storage.head("/src/a.txt")) == {"x-svc-meta-owner": "ann"}


def test_a_copy_replaces_a_file_at_the_target_and_survives_its_source(storage):
    storage.put("/dst/d.txt", b"older and longer")
    assert storage.put("/dst/d.txt", headers={COPY: source(storage)}).status_code == 200
    storage.delete("/src/a.txt")
    assert storage.get("/dst/d.txt").content == b"original"


def test_a_move_leaves_nothing_at_the_source(storage):
    assert storage.put("/moved/a.txt", headers={MOVE: source(storage)}).status_code == 200
    assert storage.get("/moved/a.txt").content == b"original"
    assert meta(storage.head("/moved/a.txt")) == {"x-svc-meta-owner": "ann"}
    assert storage.head("/src/a.txt").status_code == 404
    assert storage.get("/src").text == ""
    assert storage.get("/", query="usage").text == str(len(b"original"))


def test_a_source_header_may_be_percent_encoded(storage):
    storage.put("/src/名字 1.txt", b"named")
    encoded = "/" + storage.bucket + "/src/%E5%90%8D%E5%AD%97%201.txt"
    assert storage.put("/dst/named.txt", headers={COPY: encoded}).status_code == 200
    assert storage.get("/dst/named.txt").content == b"named"


def test_a_copy_without_content_length_is_taken(storage):
    """A client that sends no body may leave Content-Length out (the JavaScript SDK does)."""
    uri = storage.uri("/dst/nolength.txt")
    headers = {"Date": storage.date(), COPY: source(storage)}
    headers["Authorization"] = storage.authorization("PUT", uri, headers, 0, "current", None,
                                                     None)
    target = urlsplit(storage.base)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
    connection.putrequest("PUT", uri)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    assert connection.getresponse().status == 200
    connection.close()
    assert storage.get("/dst/nolength.txt").content == b"original"


# --- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize("header", [COPY, MOVE])
def test_a_source_in_another_bucket_is_refused(storage, header):
    response = storage.put("/dst/x.txt", headers={header: source(storage, bucket="elsewhere")})
    assert "elsewhere" in assert_error(response, 40000040)["detail"]


@pytest.mark.parametrize("header", [COPY, MOVE])
def test_a_copy_onto_itself_is_refused(storage, header):
    response = storage.put("/src/a.txt", headers={header: source(storage)})
    assert_error(response, 40000041)
    assert storage.get("/src/a.txt").content == b"original"


def test_a_copy_onto_the_same_path_spelt_otherwise_is_refused(storage):
    response = storage.put("/src//a.txt", headers={COPY: source(storage, "/src/a.txt/")})
    assert_error(response, 40000041)


@pytest.mark.parametrize("header", [COPY, MOVE])
def test_a_missing_source_is_a_wrong_source_key(storage, header):
    response = storage.put("/dst/x.txt", headers={header: source(storage, "/src/none.txt")})
    assert "nothing" in assert_error(response, 40000042)["detail"]
    assert storage.head("/dst/x.txt").status_code == 404


@pytest.mark.parametrize("header", [COPY, MOVE])
def test_a_move_or_copy_from_a_folder_is_refused_and_leaves_it_whole(storage, header):
    response = storage.put("/dst/folder", headers={header: source(storage, "/src")})
    assert "a folder" in assert_error(response, 40000042)["detail"]
    assert storage.get("/src/a.txt").content == b"original"
    assert storage.head("/dst/folder").status_code == 404


@pytest.mark.parametrize("value", ["src/a.txt", "/", "//src/a.txt"])
def test_a_source_that_is_not_bucket_and_path_is_a_wrong_source_key(storage, value):
    assert_error(storage.put("/dst/x.txt", headers={COPY: value}), 40000042)


def test_a_source_naming_only_the_bucket_is_a_wrong_source_key(storage):
    assert_error(storage.put("/dst/x.txt", headers={COPY: f"/{storage.bucket}/"}), 40000042)


def test_another_metadata_directive_is_refused(storage):
    response = storage.put("/dst/x.txt", headers={COPY: source(storage),
                                                  "x-svc-metadata-directive": "merge"})
    assert "copy or replace" in assert_error(response, 40000043)["detail"]


def test_replace_without_any_metadata_is_refused(storage):
    response = storage.put("/dst/x.txt", headers={COPY: source(storage),
                                                  "x-svc-metadata-directive": "replace"})
    assert_error(response, 40000044)


def test_replace_with_a_bad_ttl_is_refused(storage):
    response = storage.put("/dst/x.txt", headers={COPY: source(storage),
                                                  "x-svc-metadata-directive": "replace",
                                                  "x-svc-meta-ttl": "181"})
    assert_error(response, 40011092)


def test_a_copy_with_a_body_is_refused(storage):
    response = storage.put("/dst/x.txt", b"body", headers={COPY: source(storage)})
    assert "takes no body" in assert_error(response, 40000000)["detail"]


def test_copy_and_move_at_once_are_refused(storage):
    response = storage.put("/dst/x.txt", headers={COPY: source(storage), MOVE: source(storage)})
    assert "not both" in assert_error(response, 40000000)["detail"]


def test_a_copy_onto_a_folder_is_refused(storage):
    storage.mkdir("/dst/taken")
    assert_error(storage.put("/dst/taken", headers={COPY: source(storage)}), 40600001)


def test_a_moved_file_is_not_deleted_by_an_async_delete_of_its_source(storage, sandbox):
    storage.delete("/src/a.txt", headers={"x-svc-async": "true"})
    assert storage.put("/moved/kept.txt", headers={MOVE: source(storage)}).status_code == 200
    sandbox.advance(10)
    assert storage.get("/moved/kept.txt").content == b"original"


def test_a_copy_is_a_new_upload_for_the_ttl_and_a_move_is_not(storage, sandbox):
    storage.put("/ttl/a.txt", b"t", headers={"x-svc-meta-ttl": "1"})
    sandbox.advance(20 * 3600)
    storage.put("/ttl/copy.txt", headers={COPY: source(storage, "/ttl/a.txt")})
    storage.put("/ttl/moved.txt", headers={MOVE: source(storage, "/ttl/a.txt")})
    sandbox.advance(5 * 3600)
    assert storage.head("/ttl/moved.txt").status_code == 404
    assert storage.get("/ttl/copy.txt").content == b"t"
    assert json.loads(storage.get("/ttl", headers={"Accept": "application/json"}).text)[
        "files"][0]["name"] == "copy.txt"
