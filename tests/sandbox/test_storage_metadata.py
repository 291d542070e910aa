"""Metadata: PATCH merge / replace / delete, last-modified, the secret, and the TTL."""

from __future__ import annotations

import pytest

from tests.sandbox.test_storage_client import StorageClient, assert_error

DAY = 86_400


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


@pytest.fixture
def tagged(storage):
    storage.put("/m/file.txt", b"x", headers={"x-svc-meta-a": "1", "x-svc-meta-b": "2"})
    return "/m/file.txt"


def meta(storage, path):
    return {name.lower(): value for name, value in storage.head(path).headers.items()
            if name.lower().startswith("x-svc-meta-")}


def test_merge_replaces_same_named_entries_and_keeps_the_rest(storage, tagged):
    response = storage.patch(tagged, "metadata=merge",
                             headers={"x-svc-meta-b": "two", "x-svc-meta-c": "3"})
    assert response.status_code == 200
    assert meta(storage, tagged) == {"x-svc-meta-a": "1", "x-svc-meta-b": "two",
                                     "x-svc-meta-c": "3"}


def test_merge_is_the_default_option(storage, tagged):
    storage.patch(tagged, "", headers={"x-svc-meta-c": "3"})
    assert meta(storage, tagged)["x-svc-meta-c"] == "3"
    assert meta(storage, tagged)["x-svc-meta-a"] == "1"


def test_replace_keeps_only_the_new_entries(storage, tagged):
    storage.patch(tagged, "metadata=replace", headers={"x-svc-meta-z": "26"})
    assert meta(storage, tagged) == {"x-svc-meta-z": "26"}


def test_delete_removes_the_named_entries(storage, tagged):
    storage.patch(tagged, "metadata=delete", headers={"x-svc-meta-a": "any value"})
    assert meta(storage, tagged) == {"x-svc-meta-b": "2"}


def test_last_modified_moves_only_when_asked(storage, tagged, sandbox):
    def listed_mtime():
        return storage.get("/m", headers={"Accept": "application/json"}).json()[
            "files"][0]["last_modified"]

    before = listed_mtime()
    sandbox.advance(3600)
    storage.patch(tagged, "metadata=merge", headers={"x-svc-meta-c": "3"})
    assert listed_mtime() == before
    storage.patch(tagged, "metadata=merge&update_last_modified=true",
                  headers={"x-svc-meta-c": "4"})
    assert listed_mtime() >= before + 3600


def test_the_secret_is_changed_and_removed_through_its_metadata(storage, tagged):
    storage.patch(tagged, "metadata=merge", headers={"x-svc-meta-secret": "abc123"})
    assert meta(storage, tagged)["x-svc-meta-secret"] == "abc123"
    assert_error(storage.patch(tagged, "metadata=merge",
                               headers={"x-svc-meta-secret": "no-dashes"}), 40300016)
    storage.patch(tagged, "metadata=delete", headers={"x-svc-meta-secret": "x"})
    assert "x-svc-meta-secret" not in meta(storage, tagged)


def test_an_unknown_option_is_refused(storage, tagged):
    response = storage.patch(tagged, "metadata=append", headers={"x-svc-meta-a": "9"})
    assert "merge, replace, delete" in assert_error(response, 40001003)["detail"]
    assert meta(storage, tagged)["x-svc-meta-a"] == "1"


def test_a_bad_update_last_modified_is_refused(storage, tagged):
    assert_error(storage.patch(tagged, "metadata=merge&update_last_modified=yes"), 40000000)


def test_patching_a_missing_file_is_not_found(storage):
    assert_error(storage.patch("/m/none.txt", headers={"x-svc-meta-a": "1"}), 40400001)


def test_folders_carry_no_metadata(storage):
    storage.mkdir("/m/folder")
    assert_error(storage.patch("/m/folder", headers={"x-svc-meta-a": "1"}), 40300015)


def test_a_file_with_a_ttl_is_removed_after_that_many_days(storage, sandbox):
    storage.put("/ttl/short.txt", b"x", headers={"x-svc-meta-ttl": "2"})
    storage.put("/ttl/forever.txt", b"y")
    sandbox.advance(2 * DAY - 60)
    assert storage.head("/ttl/short.txt").status_code == 200
    sandbox.advance(61)
    assert storage.head("/ttl/short.txt").status_code == 404
    assert storage.head("/ttl/forever.txt").status_code == 200
    assert storage.head("/ttl").status_code == 200  # the folder stays


def test_a_ttl_set_later_counts_from_the_upload(storage, sandbox):
    storage.put("/ttl/later.txt", b"x")
    sandbox.advance(DAY + 60)
    storage.patch("/ttl/later.txt", headers={"x-svc-meta-ttl": "1"})
    sandbox.advance(1)
    assert storage.head("/ttl/later.txt").status_code == 404


def test_removing_the_ttl_keeps_the_file(storage, sandbox):
    storage.put("/ttl/kept.txt", b"x", headers={"x-svc-meta-ttl": "1"})
    storage.patch("/ttl/kept.txt", "metadata=delete", headers={"x-svc-meta-ttl": "1"})
    sandbox.advance(2 * DAY)
    assert storage.head("/ttl/kept.txt").status_code == 200


def test_the_longest_ttl_is_180_days(storage):
    assert storage.put("/ttl/max.txt", b"x", headers={"x-svc-meta-ttl": "180"}).status_code \
        == 200


@pytest.mark.parametrize("ttl", ["0", "181", "1.5", "week", "-3"])
def test_a_bad_ttl_is_refused(storage, ttl):
    response = storage.put("/ttl/bad.txt", b"x", headers={"x-svc-meta-ttl": ttl})
    assert "x-svc-meta-ttl" in assert_error(response, 40011092)["detail"]
    assert storage.head("/ttl/bad.txt").status_code == 404
