"""Asynchronous delete (`x-svc-async: true`): answered at once, carried out a little later."""

from __future__ import annotations

import pytest

from tests.sandbox.test_storage_client import StorageClient, assert_error

ASYNC = {"x-svc-async": "true"}
DELAY_S = 2


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def test_an_async_delete_answers_at_once_and_happens_later(storage, sandbox):
    storage.put("/later/a.txt", b"x")
    assert storage.delete("/later/a.txt", headers=ASYNC).status_code == 200
    assert storage.head("/later/a.txt").status_code == 200
    sandbox.advance(DELAY_S)
    assert storage.head("/later/a.txt").status_code == 404
    assert storage.get("/", query="usage").text == "0"


def test_an_async_delete_removes_an_empty_folder(storage, sandbox):
    storage.mkdir("/later/empty")
    assert storage.delete("/later/empty", headers=ASYNC).status_code == 200
    sandbox.advance(DELAY_S)
    assert storage.head("/later/empty").status_code == 404


def test_a_file_uploaded_again_before_the_delete_runs_is_kept(storage, sandbox):
    storage.put("/later/b.txt", b"old")
    storage.delete("/later/b.txt", headers=ASYNC)
    storage.put("/later/b.txt", b"new")
    sandbox.advance(DELAY_S)
    assert storage.get("/later/b.txt").content == b"new"


def test_a_folder_filled_before_the_delete_runs_is_kept(storage, sandbox):
    storage.mkdir("/later/box")
    storage.delete("/later/box", headers=ASYNC)
    storage.put("/later/box/item.txt", b"x")
    sandbox.advance(DELAY_S)
    assert storage.head("/later/box/item.txt").status_code == 200


def test_an_async_delete_of_a_missing_file_is_refused_at_once(storage):
    assert_error(storage.delete("/later/none.txt", headers=ASYNC), 40400001)


def test_an_async_delete_of_a_full_folder_is_refused_at_once(storage):
    storage.put("/later/full/a.txt", b"x")
    assert_error(storage.delete("/later/full", headers=ASYNC), 40300005)


def test_false_means_synchronous(storage):
    storage.put("/later/c.txt", b"x")
    assert storage.delete("/later/c.txt", headers={"x-svc-async": "false"}).status_code == 200
    assert storage.head("/later/c.txt").status_code == 404


def test_a_bad_async_value_is_refused(storage):
    storage.put("/later/d.txt", b"x")
    assert_error(storage.delete("/later/d.txt", headers={"x-svc-async": "soon"}), 40000000)
    assert storage.head("/later/d.txt").status_code == 200
