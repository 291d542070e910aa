"""Folders: creation with `folder: true`, deletion only when empty, and the bucket's usage."""

from __future__ import annotations

import pytest

from tests.sandbox.test_storage_client import StorageClient, assert_error


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def test_it_creates_a_folder_and_the_folders_above_it(storage):
    assert storage.mkdir("/albums/2025/summer").status_code == 200
    for folder in ("/albums", "/albums/2025", "/albums/2025/summer"):
        assert storage.head(folder).headers["x-svc-file-type"] == "folder"


def test_a_trailing_slash_names_the_same_folder(storage):
    storage.mkdir("/slashed/")
    assert storage.head("/slashed").headers["x-svc-file-type"] == "folder"
    assert_error(storage.mkdir("/slashed"), 40600002)


def test_an_existing_folder_is_refused(storage):
    storage.mkdir("/twice")
    assert_error(storage.mkdir("/twice"), 40600002)


def test_the_bucket_root_exists_already(storage):
    assert_error(storage.mkdir("/"), 40600002)


def test_a_folder_cannot_replace_a_file(storage):
    storage.put("/taken", b"x")
    assert_error(storage.mkdir("/taken"), 40600001)


def test_a_post_without_the_folder_header_is_refused(storage):
    response = storage.request("POST", "/not-a-folder")
    assert "folder: true" in assert_error(response, 40001004)["detail"]
    assert storage.head("/not-a-folder").status_code == 404


def test_an_empty_folder_can_be_deleted(storage):
    storage.mkdir("/empty")
    assert storage.delete("/empty").status_code == 200
    assert storage.head("/empty").status_code == 404


def test_a_folder_with_a_file_cannot_be_deleted(storage):
    storage.put("/full/a.txt", b"x")
    assert_error(storage.delete("/full"), 40300005)
    assert storage.head("/full/a.txt").status_code == 200


def test_a_folder_with_a_subfolder_cannot_be_deleted(storage):
    storage.mkdir("/outer/inner")
    assert_error(storage.delete("/outer"), 40300005)
    storage.delete("/outer/inner")
    assert storage.delete("/outer").status_code == 200


def test_the_bucket_root_cannot_be_deleted(storage):
    assert_error(storage.delete("/"), 40300011)


def test_usage_counts_the_bytes_of_every_file(storage):
    assert storage.get("/", query="usage").text == "0"
    storage.put("/u/a.bin", b"x" * 1000)
    storage.put("/u/deeper/b.bin", b"y" * 234)
    storage.mkdir("/u/nothing")
    response = storage.get("/", query="usage")
    assert response.status_code == 200
    assert response.text == "1234"


def test_usage_is_asked_of_the_bucket_root(storage):
    storage.mkdir("/sub")
    assert_error(storage.get("/sub", query="usage"), 40001000)
