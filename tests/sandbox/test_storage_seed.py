"""The control endpoint that fills a folder with generated files: results and bad input."""

from __future__ import annotations

import hashlib

import pytest

from tests.sandbox.test_storage_client import StorageClient


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def test_seeded_files_are_ordinary_files(sandbox, storage):
    response = sandbox.control("POST", "/storage/seed", {"path": "/gen/deep", "count": 12,
                                                          "prefix": "img-", "suffix": ".png",
                                                          "size": 20})
    assert response.status_code == 201
    assert response.json() == {"bucket": storage.bucket, "path": "/gen/deep", "created": 12,
                               "skipped": 0}
    listed = storage.get("/gen/deep", headers={"Accept": "application/json"}).json()["files"]
    assert [item["name"] for item in listed] == [f"img-{n:02d}.png" for n in range(12)]
    assert {item["type"] for item in listed} == {"image/png"}
    download = storage.get("/gen/deep/img-03.png")
    assert download.content == (b"img-03.png\n" * 2)[:20]
    assert download.headers["Content-Md5"] == hashlib.md5(download.content).hexdigest()
    assert storage.get("/", query="usage").text == "240"


def test_existing_names_are_skipped(sandbox, storage):
    storage.put("/gen/file-1.txt", b"kept")
    response = sandbox.control("POST", "/storage/seed", {"path": "/gen", "count": 3})
    assert response.json()["created"] == 2
    assert response.json()["skipped"] == 1
    assert storage.get("/gen/file-1.txt").content == b"kept"


@pytest.mark.parametrize("body, field", [
    ({"count": 3}, "path"),
    ({"path": "gen", "count": 3}, "path"),
    ({"path": "/gen"}, "count"),
    ({"path": "/gen", "count": 0}, "count"),
    ({"path": "/gen", "count": 100_001}, "count"),
    ({"path": "/gen", "count": 2.5}, "count"),
    ({"path": "/gen", "count": 3, "size": -1}, "size"),
    ({"path": "/gen", "count": 3, "prefix": "a/b"}, "prefix"),
    ({"path": "/gen", "count": 3, "colour": "red"}, "colour"),
    ({"path": "/gen/../x", "count": 3}, "path"),
])
def test_bad_seed_requests_name_the_field(sandbox, body, field):
    response = sandbox.control("POST", "/storage/seed", body)
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_a_file_is_not_a_folder_to_seed(sandbox, storage):
    storage.put("/solid.txt", b"x")
    response = sandbox.control("POST", "/storage/seed", {"path": "/solid.txt", "count": 2})
    assert response.status_code == 400
    assert "is a file" in response.json()["error"]
