"""Resumable upload in parallel mode (`x-svc-multi-disorder: true`, the official SDKs'
parallel uploaders), and cancelling an upload with DELETE (DECISIONS.md)."""

from __future__ import annotations

import hashlib
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.sandbox.test_storage_client import StorageClient, assert_error
from tests.sandbox.test_storage_resumable import MIB, complete, part

DATA = hashlib.sha256(b"parallel").digest() * (5 * MIB // 32) + b"the tail"  # 6 parts


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def initiate(storage, path, length: int | None = len(DATA), **headers: str):
    sent = {"x-svc-multi-stage": "initiate", "x-svc-multi-disorder": "true", **headers}
    if length is not None:
        sent["x-svc-multi-length"] = str(length)
    response = storage.put(path, headers=sent)
    assert response.status_code == 204, response.text
    return response.headers["x-svc-multi-uuid"]


def pieces(data=DATA, size=MIB):
    return [data[start:start + size] for start in range(0, len(data), size)]


def send_at_once(storage, path, task, numbered):
    """Every (id, bytes) at the same moment, one thread each."""
    start = threading.Barrier(len(numbered))

    def send(item):
        start.wait()
        return part(storage, path, task, item[0], item[1])

    with ThreadPoolExecutor(len(numbered)) as pool:
        return list(pool.map(send, numbered))


def test_parts_sent_at_once_in_any_order_make_the_file(storage):
    task = initiate(storage, "/par/f.bin")
    numbered = list(enumerate(pieces()))
    random.Random(7).shuffle(numbered)
    answers = send_at_once(storage, "/par/f.bin", task, numbered)
    assert [answer.status_code for answer in answers] == [204] * len(numbered)
    done = complete(storage, "/par/f.bin", task,
                    **{"x-svc-multi-md5": hashlib.md5(DATA).hexdigest()})
    assert done.status_code == 201, done.text
    assert done.headers["x-svc-multi-length"] == str(len(DATA))
    assert storage.get("/par/f.bin").content == DATA


def test_the_total_length_may_be_left_out(storage):
    task = initiate(storage, "/par/nolength.bin", length=None)
    for part_id, data in reversed(list(enumerate(pieces()))):
        assert part(storage, "/par/nolength.bin", task, part_id, data).status_code == 204
    done = complete(storage, "/par/nolength.bin", task)
    assert done.status_code == 201, done.text
    assert done.headers["x-svc-multi-length"] == str(len(DATA))
    assert storage.get("/par/nolength.bin").content == DATA


def test_a_part_size_of_several_mebibytes_is_taken(storage):
    size = 2 * MIB
    task = initiate(storage, "/par/big.bin", len(DATA), **{"x-svc-multi-part-size": str(size)})
    for part_id, data in enumerate(pieces(size=size)):
        assert part(storage, "/par/big.bin", task, part_id, data).status_code == 204
    assert complete(storage, "/par/big.bin", task).status_code == 201
    assert storage.get("/par/big.bin").content == DATA


def test_a_part_sent_twice_is_refused_and_the_first_is_kept(storage):
    task = initiate(storage, "/par/twice.bin")
    first = pieces()[0]
    assert part(storage, "/par/twice.bin", task, 0, first).status_code == 204
    again = part(storage, "/par/twice.bin", task, 0, b"y" * MIB)
    assert "part 0 has already arrived" in assert_error(again, 40001031)["detail"]
    for part_id, data in list(enumerate(pieces()))[1:]:
        part(storage, "/par/twice.bin", task, part_id, data)
    assert complete(storage, "/par/twice.bin", task).status_code == 201
    assert storage.get("/par/twice.bin").content == DATA


def test_one_part_sent_by_many_at_once_is_taken_once(storage):
    task = initiate(storage, "/par/race.bin")
    contenders = [(1, bytes([letter]) * MIB) for letter in b"abcdef"]
    answers = send_at_once(storage, "/par/race.bin", task, contenders)
    accepted = [index for index, answer in enumerate(answers) if answer.status_code == 204]
    assert len(accepted) == 1, [answer.text for answer in answers]
    for index, answer in enumerate(answers):
        if index not in accepted:
            assert_error(answer, 40001031)
    chunks = pieces()
    chunks[1] = contenders[accepted[0]][1]
    for part_id, data in enumerate(chunks):
        if part_id != 1:
            part(storage, "/par/race.bin", task, part_id, data)
    assert complete(storage, "/par/race.bin", task).status_code == 201
    assert storage.get("/par/race.bin").content == b"".join(chunks)


def test_completion_with_a_gap_is_refused_naming_the_missing_parts(storage):
    task = initiate(storage, "/par/gap.bin", length=None)
    chunks = pieces()
    for part_id in (0, 1, 3, 5):
        part(storage, "/par/gap.bin", task, part_id, chunks[part_id])
    response = complete(storage, "/par/gap.bin", task)
    assert assert_error(response, 40001037)["detail"] == "missing parts: 2, 4"
    assert storage.head("/par/gap.bin").status_code == 404
    for part_id in (2, 4):
        part(storage, "/par/gap.bin", task, part_id, chunks[part_id])
    assert complete(storage, "/par/gap.bin", task).status_code == 201


def test_completion_without_any_part_is_refused(storage):
    task = initiate(storage, "/par/empty.bin", length=None)
    assert_error(complete(storage, "/par/empty.bin", task), 40001037)


def test_a_short_part_other_than_the_last_is_refused_at_completion(storage):
    task = initiate(storage, "/par/short.bin", length=None)
    part(storage, "/par/short.bin", task, 0, b"x" * 10)
    part(storage, "/par/short.bin", task, 1, b"y" * 10)
    assert "part 0 has 10 bytes" in assert_error(complete(storage, "/par/short.bin", task),
                                                 40001027)["detail"]


def test_a_part_of_the_wrong_size_is_refused_when_the_length_is_known(storage):
    task = initiate(storage, "/par/size.bin")
    assert_error(part(storage, "/par/size.bin", task, 5, b"too short"), 40001027)
    assert_error(part(storage, "/par/size.bin", task, 0, b"x" * (MIB + 1)), 40001032)
    assert_error(part(storage, "/par/size.bin", task, 6, b"x"), 40001030)


def test_a_part_id_beyond_ten_thousand_parts_is_refused(storage):
    task = initiate(storage, "/par/ids.bin", length=None)
    assert_error(part(storage, "/par/ids.bin", task, 10_000, b"x"), 40001030)


def test_a_wrong_whole_file_md5_refuses_completion_and_keeps_the_parts(storage):
    task = initiate(storage, "/par/md5.bin")
    for part_id, data in enumerate(pieces()):
        part(storage, "/par/md5.bin", task, part_id, data)
    wrong = complete(storage, "/par/md5.bin", task, **{"x-svc-multi-md5": "0" * 32})
    assert_error(wrong, 40011060)
    assert complete(storage, "/par/md5.bin", task).status_code == 201


def test_a_part_with_a_wrong_content_md5_is_refused_and_may_come_again(storage):
    task = initiate(storage, "/par/pmd5.bin", length=3)
    assert_error(part(storage, "/par/pmd5.bin", task, 0, b"abc",
                      **{"Content-MD5": "0" * 32}), 40001001)
    assert part(storage, "/par/pmd5.bin", task, 0, b"abc").status_code == 204


def test_the_lengths_of_the_parts_must_add_up_to_the_declared_length(storage):
    """Known length: each part's size is checked on arrival, so the sum always matches."""
    task = initiate(storage, "/par/sum.bin", length=MIB + 1)
    assert_error(part(storage, "/par/sum.bin", task, 1, b"ab"), 40001027)


def test_parts_after_completion_are_refused_as_completed(storage):
    task = initiate(storage, "/par/done.bin", length=3)
    part(storage, "/par/done.bin", task, 0, b"abc")
    complete(storage, "/par/done.bin", task)
    assert_error(part(storage, "/par/done.bin", task, 0, b"abc"), 40001036)


def test_initiate_upload_and_complete_may_be_combined(storage):
    response = storage.put("/par/one.txt", b"small", headers={
        "x-svc-multi-stage": "initiate,upload,complete", "x-svc-multi-disorder": "true"})
    assert response.status_code == 201, response.text
    assert storage.get("/par/one.txt").content == b"small"


# --- cancel ----------------------------------------------------------------------------------


def cancel(storage, path, task):
    return storage.delete(path, headers={"x-svc-multi-uuid": task})


@pytest.mark.parametrize("disorder", ["true", "false"])
def test_a_delete_with_the_uuid_cancels_the_upload(storage, disorder):
    response = storage.put("/cancel/f.bin", headers={
        "x-svc-multi-stage": "initiate", "x-svc-multi-length": str(len(DATA)),
        "x-svc-multi-disorder": disorder})
    task = response.headers["x-svc-multi-uuid"]
    part(storage, "/cancel/f.bin", task, 0, pieces()[0])
    assert cancel(storage, "/cancel/f.bin", task).status_code == 200
    assert_error(part(storage, "/cancel/f.bin", task, 1, pieces()[1]), 40001035)
    assert_error(complete(storage, "/cancel/f.bin", task), 40001035)
    assert storage.head("/cancel/f.bin").status_code == 404


def test_cancelling_an_unknown_upload_is_refused_with_the_docs_message(storage):
    response = cancel(storage, "/cancel/f.bin", "0b8ef1a3-2f5c-4a0e-9c57-1d2f3e4a5b6c")
    body = assert_error(response, 40011058)
    assert body["msg"] == "invalid x-svc-multi-uuid not found"


def test_cancelling_an_upload_of_another_path_is_refused(storage):
    task = initiate(storage, "/cancel/mine.bin")
    assert_error(cancel(storage, "/cancel/other.bin", task), 40011058)
    assert part(storage, "/cancel/mine.bin", task, 0, pieces()[0]).status_code == 204


def test_cancelling_a_completed_upload_is_refused_and_keeps_the_file(storage):
    task = initiate(storage, "/cancel/done.bin", length=3)
    part(storage, "/cancel/done.bin", task, 0, b"abc")
    complete(storage, "/cancel/done.bin", task)
    assert_error(cancel(storage, "/cancel/done.bin", task), 40001036)
    assert storage.get("/cancel/done.bin").content == b"abc"


def test_cancelling_with_a_malformed_uuid_is_a_wrong_uuid(storage):
    assert_error(cancel(storage, "/cancel/f.bin", "nope"), 40001023)


# --- the provider's headers in lowercase -----------------------------------------------------


def test_provider_headers_go_out_in_lowercase(storage):
    """An official SDK reads `x-upyun-list-iter` from a plain dict: case matters on the wire."""
    task = initiate(storage, "/case/f.bin")
    storage.put("/case/listed.txt", b"x")
    raw = requests.get(storage.base + storage.uri("/case"), headers={
        "Date": storage.date(),
        "Authorization": storage.authorization("GET", storage.uri("/case"),
                                               {"Date": storage.date()}, 0, "current", None,
                                               None)}, timeout=30, stream=True)
    assert "x-svc-list-iter" in wire_names(raw), wire_names(raw)
    answer = part(storage, "/case/f.bin", task, 9, b"x")
    assert "x-svc-multi-uuid" in wire_names(answer), wire_names(answer)


def wire_names(response: requests.Response) -> list[str]:
    """The header names as the server wrote them (requests' own mapping ignores case)."""
    original = response.raw._original_response
    assert original is not None
    return [name for name, _ in original.getheaders()]
