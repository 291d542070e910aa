"""Folder listing: both formats, order, pages and their iterator, and a 25,000-file folder."""

from __future__ import annotations

import base64
import time

import pytest

from tests.sandbox.test_storage_client import StorageClient, assert_error

END = "g2gCZAAEbmV4dGQAA2VvZg"
JSON = {"Accept": "application/json"}


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


@pytest.fixture
def small_folder(storage):
    storage.put("/list/b.txt", b"bb")
    storage.put("/list/a.png", b"a")
    storage.mkdir("/list/c-folder")
    storage.put("/list/c-folder/hidden.txt", b"not listed one level up")
    return "/list"


def test_the_plain_listing_has_one_tab_separated_line_per_entry(storage, small_folder, sandbox):
    response = storage.get(small_folder)
    assert response.status_code == 200
    assert response.headers["x-svc-list-iter"] == END
    rows = [line.split("\t") for line in response.text.split("\n")]
    assert [row[:3] for row in rows] == [["a.png", "N", "1"], ["b.txt", "N", "2"],
                                         ["c-folder", "F", "0"]]
    now = sandbox.now()
    assert all(now - 60 < int(row[3]) <= now for row in rows)


def test_the_json_listing_names_mime_types_and_folders(storage, small_folder):
    response = storage.get(small_folder, headers=JSON)
    assert response.headers["Content-Type"] == "application/json"
    body = response.json()
    assert body["iter"] == END
    assert [(item["name"], item["type"], item["length"]) for item in body["files"]] == [
        ("a.png", "image/png", 1), ("b.txt", "text/plain", 2), ("c-folder", "folder", 0)]
    assert all(isinstance(item["last_modified"], int) for item in body["files"])


def test_the_order_can_be_descending(storage, small_folder):
    names = [item["name"] for item in storage.get(
        small_folder, headers={**JSON, "x-list-order": "desc"}).json()["files"]]
    assert names == ["c-folder", "b.txt", "a.png"]


def test_pages_follow_the_iterator_to_the_end_marker(storage, small_folder):
    first = storage.get(small_folder, headers={**JSON, "x-list-limit": "2"})
    assert [item["name"] for item in first.json()["files"]] == ["a.png", "b.txt"]
    iterator = first.headers["x-svc-list-iter"]
    assert iterator != END
    assert first.json()["iter"] == iterator
    base64.b64decode(iterator, validate=True)  # Base64 text, as the spec says
    second = storage.get(small_folder, headers={**JSON, "x-list-limit": "2",
                                                "x-list-iter": iterator})
    assert [item["name"] for item in second.json()["files"]] == ["c-folder"]
    assert second.headers["x-svc-list-iter"] == END


def test_a_descending_page_continues_descending(storage, small_folder):
    headers = {**JSON, "x-list-limit": "1", "x-list-order": "desc"}
    first = storage.get(small_folder, headers=headers)
    second = storage.get(small_folder, headers={**headers,
                                                "x-list-iter": first.headers["x-svc-list-iter"]})
    assert [item["name"] for item in second.json()["files"]] == ["b.txt"]


def test_asking_past_the_end_marker_gives_an_empty_last_page(storage, small_folder):
    response = storage.get(small_folder, headers={**JSON, "x-list-iter": END})
    assert response.json() == {"files": [], "iter": END}


def test_an_empty_folder_lists_nothing(storage):
    storage.mkdir("/void")
    response = storage.get("/void")
    assert response.text == ""
    assert response.headers["x-svc-list-iter"] == END


def test_the_bucket_root_lists_its_top_level(storage, small_folder):
    names = [item["name"] for item in storage.get("/", headers=JSON).json()["files"]]
    assert names == ["list"]


def test_a_missing_folder_is_not_found(storage):
    assert_error(storage.get("/no-such-folder/", headers=JSON), 40400001)


@pytest.mark.parametrize("limit", ["0", "10001", "ten", "-1"])
def test_a_bad_limit_is_refused(storage, small_folder, limit):
    response = storage.get(small_folder, headers={"x-list-limit": limit})
    assert "x-list-limit" in assert_error(response, 40000000)["detail"]


def test_a_bad_order_is_refused(storage, small_folder):
    response = storage.get(small_folder, headers={"x-list-order": "random"})
    assert "x-list-order" in assert_error(response, 40300014)["detail"]


def test_a_made_up_iterator_is_refused(storage, small_folder):
    response = storage.get(small_folder, headers={"x-list-iter": "%%%not-base64"})
    assert "x-list-iter" in assert_error(response, 40001005)["detail"]


def test_a_folder_of_25000_files_lists_fast_in_pages(storage, sandbox):
    seeded = sandbox.control("POST", "/storage/seed", {"path": "/huge", "count": 25_000,
                                                        "size": 8})
    assert seeded.status_code == 201, seeded.text
    assert seeded.json()["created"] == 25_000

    started = time.monotonic()
    names: list[str] = []
    iterator = None
    pages = 0
    while iterator != END:
        headers = {**JSON, "x-list-limit": "10000"}
        if iterator:
            headers["x-list-iter"] = iterator
        response = storage.get("/huge", headers=headers)
        assert response.status_code == 200
        names.extend(item["name"] for item in response.json()["files"])
        iterator = response.headers["x-svc-list-iter"]
        pages += 1
    assert pages == 3
    assert len(names) == 25_000
    assert names == sorted(names) and len(set(names)) == 25_000

    # A deep default-size page in plain text is as quick as the first.
    deep = storage.get("/huge", headers={"x-list-iter": base64.b64encode(
        names[24_899].encode()).decode()})
    lines = deep.text.split("\n")
    assert len(lines) == 100 and lines[0].startswith(names[24_900] + "\tN\t8\t")
    assert deep.headers["x-svc-list-iter"] == END
    assert time.monotonic() - started < 20
