"""Resumable upload: the initiate / upload / complete state machine and all its refusals."""

from __future__ import annotations

import hashlib

import pytest

from tests.sandbox.test_storage_client import StorageClient, assert_error

MIB = 1_048_576
FILE = bytes(range(256)) * (MIB // 256) * 2 + b"tail of the file"  # 2 MiB + 16 bytes: 3 parts
FILE_LENGTH = len(FILE)


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def initiate(storage, path, length=FILE_LENGTH, **headers):
    response = storage.put(path, headers={"x-svc-multi-stage": "initiate",
                                          "x-svc-multi-length": str(length), **headers})
    assert response.status_code == 204, response.text
    assert response.headers["x-svc-next-part-id"] == "0"
    task = response.headers["x-svc-multi-uuid"]
    assert len(task) == 36
    return task


def part(storage, path, task, part_id, data, stage="upload", **headers):
    return storage.put(path, data, headers={"x-svc-multi-stage": stage, "x-svc-multi-uuid": task,
                                            "x-svc-part-id": str(part_id), **headers})


def complete(storage, path, task, **headers):
    return storage.put(path, headers={"x-svc-multi-stage": "complete",
                                      "x-svc-multi-uuid": task, **headers})


def send_all_parts(storage, path, task, data=FILE):
    for part_id in range(0, len(data), MIB):
        response = part(storage, path, task, part_id // MIB, data[part_id:part_id + MIB])
        assert response.status_code == 204, response.text
    return response


def test_a_file_uploaded_in_parts_is_created(storage):
    task = initiate(storage, "/big/file.bin", **{"x-svc-multi-type": "video/mp4",
                                                 "x-svc-meta-origin": "camera"})
    first = part(storage, "/big/file.bin", task, 0, FILE[:MIB],
                 **{"Content-MD5": hashlib.md5(FILE[:MIB]).hexdigest()})
    assert first.headers["x-svc-next-part-id"] == "1"
    assert first.headers["x-svc-multi-uuid"] == task
    assert part(storage, "/big/file.bin", task, 1, FILE[MIB:2 * MIB]).headers[
        "x-svc-next-part-id"] == "2"
    last = part(storage, "/big/file.bin", task, 2, FILE[2 * MIB:])
    assert last.headers["x-svc-next-part-id"] == "-1"
    assert storage.head("/big/file.bin").status_code == 404  # nothing before completion

    done = complete(storage, "/big/file.bin", task,
                    **{"x-svc-multi-md5": hashlib.md5(FILE).hexdigest()})
    assert done.status_code == 201
    assert done.headers["x-svc-multi-uuid"] == task
    assert done.headers["x-svc-multi-type"] == "video/mp4"
    assert done.headers["x-svc-multi-length"] == str(len(FILE))
    download = storage.get("/big/file.bin")
    assert download.content == FILE
    assert download.headers["Content-Type"] == "video/mp4"
    assert download.headers["x-svc-meta-origin"] == "camera"


def test_completing_over_an_existing_file_answers_204(storage):
    storage.put("/big/again.bin", b"old content")
    task = initiate(storage, "/big/again.bin", length=5)
    part(storage, "/big/again.bin", task, 0, b"fresh")
    assert complete(storage, "/big/again.bin", task).status_code == 204
    assert storage.get("/big/again.bin").content == b"fresh"


def test_the_mime_type_defaults_to_octet_stream(storage):
    task = initiate(storage, "/big/pic.jpg", length=3)
    part(storage, "/big/pic.jpg", task, 0, b"abc")
    assert complete(storage, "/big/pic.jpg", task).headers["x-svc-multi-type"] == \
        "application/octet-stream"


def test_stages_can_be_combined_as_the_sdks_do(storage):
    data = b"x" * (MIB + 10)
    first = storage.put("/combo/two-parts.bin", data[:MIB], headers={
        "x-svc-multi-stage": "initiate,upload", "x-svc-multi-length": str(len(data)),
        "x-svc-multi-part-size": str(MIB)})
    assert first.status_code == 204
    assert first.headers["x-svc-next-part-id"] == "1"
    task = first.headers["x-svc-multi-uuid"]
    last = part(storage, "/combo/two-parts.bin", task, 1, data[MIB:], stage="upload,complete")
    assert last.status_code == 201
    assert storage.get("/combo/two-parts.bin").content == data

    single = storage.put("/combo/one-part.txt", b"small", headers={
        "x-svc-multi-stage": "initiate,upload,complete", "x-svc-multi-length": "5"})
    assert single.status_code == 201
    assert storage.get("/combo/one-part.txt").content == b"small"


def test_a_part_out_of_order_is_refused_with_the_expected_id(storage):
    task = initiate(storage, "/order/f.bin")
    part(storage, "/order/f.bin", task, 0, FILE[:MIB])
    skipped = part(storage, "/order/f.bin", task, 2, FILE[2 * MIB:])
    assert_error(skipped, 40011061)
    assert skipped.headers["x-svc-next-part-id"] == "1"
    repeated = part(storage, "/order/f.bin", task, 0, FILE[:MIB])
    assert_error(repeated, 40011061)
    assert repeated.headers["x-svc-next-part-id"] == "1"
    assert part(storage, "/order/f.bin", task, 1, FILE[MIB:2 * MIB]).status_code == 204


def test_a_part_after_the_last_is_refused_as_already_complete(storage):
    task = initiate(storage, "/order/done.bin", length=3)
    part(storage, "/order/done.bin", task, 0, b"abc")
    again = part(storage, "/order/done.bin", task, 0, b"abc")
    assert_error(again, 40011062)
    assert again.headers["x-svc-next-part-id"] == "-1"


def test_a_part_out_of_order_says_part_id_error_exactly(storage):
    """The python SDK resynchronises only on this exact message, reading the header."""
    task = initiate(storage, "/order/exact.bin")
    body = assert_error(part(storage, "/order/exact.bin", task, 1, FILE[MIB:2 * MIB]), 40011061)
    assert body["msg"] == "part id error"
    assert body["detail"] == "expected part 0, got 1"


@pytest.mark.parametrize("part_id", ["one", "-1", "3"])
def test_a_part_id_that_is_not_a_part_is_refused(storage, part_id):
    task = initiate(storage, "/ids/f.bin")
    assert_error(part(storage, "/ids/f.bin", task, part_id, FILE[:MIB]), 40001030)


def test_a_part_with_a_wrong_md5_is_refused_and_can_be_sent_again(storage):
    task = initiate(storage, "/md5/f.bin")
    bad = part(storage, "/md5/f.bin", task, 0, FILE[:MIB],
               **{"Content-MD5": hashlib.md5(b"other").hexdigest()})
    assert_error(bad, 40001001)
    assert bad.headers["x-svc-multi-uuid"] == task
    good = part(storage, "/md5/f.bin", task, 0, FILE[:MIB],
                **{"Content-MD5": hashlib.md5(FILE[:MIB]).hexdigest()})
    assert good.headers["x-svc-next-part-id"] == "1"


def test_a_part_short_of_one_mebibyte_is_a_wrong_size(storage):
    task = initiate(storage, "/size/f.bin")
    response = part(storage, "/size/f.bin", task, 0, b"x" * (MIB - 1))
    assert f"must be {MIB} bytes" in assert_error(response, 40001027)["detail"]


def test_a_part_over_the_part_size_is_oversize(storage):
    task = initiate(storage, "/size/f.bin")
    response = part(storage, "/size/f.bin", task, 0, b"x" * (MIB + 1))
    assert f"more than the part size {MIB}" in assert_error(response, 40001032)["detail"]


def test_a_part_size_of_several_mebibytes_is_taken(storage):
    size = 2 * MIB
    response = storage.put("/size/big.bin", headers={
        "x-svc-multi-stage": "initiate", "x-svc-multi-length": str(len(FILE)),
        "x-svc-multi-part-size": str(size)})
    task = response.headers["x-svc-multi-uuid"]
    assert part(storage, "/size/big.bin", task, 0, FILE[:size]).status_code == 204
    assert part(storage, "/size/big.bin", task, 1, FILE[size:]).status_code == 204
    assert complete(storage, "/size/big.bin", task).status_code == 201
    assert storage.get("/size/big.bin").content == FILE


def test_the_last_part_must_be_the_rest_of_the_file(storage):
    task = initiate(storage, "/size/last.bin", length=MIB + 5)
    part(storage, "/size/last.bin", task, 0, b"x" * MIB)
    assert_error(part(storage, "/size/last.bin", task, 1, b"x" * 4), 40001027)


def test_a_wrong_whole_file_md5_refuses_completion(storage):
    task = initiate(storage, "/whole/f.bin")
    send_all_parts(storage, "/whole/f.bin", task)
    response = complete(storage, "/whole/f.bin", task,
                        **{"x-svc-multi-md5": hashlib.md5(b"not the file").hexdigest()})
    assert_error(response, 40011060)
    assert storage.head("/whole/f.bin").status_code == 404
    assert complete(storage, "/whole/f.bin", task,
                    **{"x-svc-multi-md5": hashlib.md5(FILE).hexdigest()}).status_code == 201


def test_completion_with_parts_missing_is_refused(storage):
    task = initiate(storage, "/missing/f.bin")
    part(storage, "/missing/f.bin", task, 0, FILE[:MIB])
    response = complete(storage, "/missing/f.bin", task)
    assert_error(response, 40001037)
    assert response.headers["x-svc-next-part-id"] == "1"


def test_a_completed_task_takes_nothing_more(storage):
    task = initiate(storage, "/closed/f.txt", length=2)
    part(storage, "/closed/f.txt", task, 0, b"ab")
    complete(storage, "/closed/f.txt", task)
    assert_error(complete(storage, "/closed/f.txt", task), 40001036)
    assert_error(part(storage, "/closed/f.txt", task, 0, b"ab"), 40001036)


def test_an_unknown_uuid_is_not_found(storage):
    response = part(storage, "/x.bin", "0b8ef1a3-2f5c-4a0e-9c57-1d2f3e4a5b6c", 0, b"abc")
    assert_error(response, 40001035)


def test_a_malformed_or_missing_uuid_is_wrong(storage):
    assert_error(part(storage, "/x.bin", "not-a-uuid", 0, b"abc"), 40001023)
    response = storage.put("/x.bin", headers={"x-svc-multi-stage": "complete"})
    assert_error(response, 40001023)


def test_a_uuid_belongs_to_its_own_file(storage):
    task = initiate(storage, "/mine.bin", length=3)
    assert "belongs to" in assert_error(part(storage, "/other.bin", task, 0, b"abc"),
                                        40001023)["detail"]


def test_an_unfinished_task_expires_after_24_hours(storage, sandbox):
    task = initiate(storage, "/slow/f.bin")
    part(storage, "/slow/f.bin", task, 0, FILE[:MIB])
    sandbox.advance(23 * 3600)
    assert part(storage, "/slow/f.bin", task, 1, FILE[MIB:2 * MIB]).status_code == 204
    sandbox.advance(3600 + 1)
    assert_error(part(storage, "/slow/f.bin", task, 2, FILE[2 * MIB:]), 40001035)
    assert_error(complete(storage, "/slow/f.bin", task), 40001035)


def test_a_task_open_at_a_reset_is_gone_with_it(storage, sandbox):
    task = initiate(storage, "/reset/f.bin")
    assert part(storage, "/reset/f.bin", task, 0, FILE[:MIB]).status_code == 204
    sandbox.reset()
    assert_error(part(storage, "/reset/f.bin", task, 1, FILE[MIB:2 * MIB]), 40001035)


def test_a_completed_task_is_refused_as_completed_not_as_unknown(storage):
    task = initiate(storage, "/done/f.bin")
    send_all_parts(storage, "/done/f.bin", task)
    assert complete(storage, "/done/f.bin", task).status_code == 201
    assert_error(part(storage, "/done/f.bin", task, 2, FILE[2 * MIB:]), 40001036)


def test_a_resumable_file_cannot_be_overwritten_by_a_plain_upload(storage):
    storage.put("/locked.txt", headers={"x-svc-multi-stage": "initiate,upload,complete",
                                        "x-svc-multi-length": "3"}, data=b"abc")
    assert "delete it first" in assert_error(storage.put("/locked.txt", b"plain"),
                                             40000000)["detail"]
    assert storage.get("/locked.txt").content == b"abc"
    storage.delete("/locked.txt")
    assert storage.put("/locked.txt", b"plain").status_code == 200


def test_a_resumable_upload_may_replace_a_resumable_file(storage):
    for content in (b"one", b"two"):
        response = storage.put("/relock.txt", content, headers={
            "x-svc-multi-stage": "initiate,upload,complete", "x-svc-multi-length": "3"})
        assert response.status_code in (201, 204)
    assert storage.get("/relock.txt").content == b"two"


def test_preprocessing_headers_are_ignored_by_a_resumable_upload(storage):
    response = storage.put("/noimg.jpg", b"not an image", headers={
        "x-svc-multi-stage": "initiate,upload,complete", "x-svc-multi-length": "12",
        "x-gmkerl-type": "fix_width", "x-gmkerl-value": "10"})
    assert response.status_code == 201
    assert "x-svc-width" not in response.headers


@pytest.mark.parametrize("headers, code", [
    ({"x-svc-multi-stage": "initiate"}, 40011052),
    ({"x-svc-multi-stage": "initiate", "x-svc-multi-length": "-5"}, 40011052),
    ({"x-svc-multi-stage": "initiate", "x-svc-multi-length": str(10_000 * MIB + 1)}, 40001025),
    ({"x-svc-multi-stage": "initiate,complete", "x-svc-multi-length": "3"}, 40011055),
    ({"x-svc-multi-stage": "begin", "x-svc-multi-length": "3"}, 40011055),
    ({"x-svc-multi-stage": "initiate", "x-svc-multi-length": "3",
      "x-svc-multi-part-size": "524288"}, 40011054),
    ({"x-svc-multi-stage": "initiate", "x-svc-multi-length": "3",
      "x-svc-multi-part-size": str(51 * MIB)}, 40011054),
    ({"x-svc-multi-stage": "initiate", "x-svc-multi-length": "3",
      "x-svc-multi-disorder": "maybe"}, 40000000),
    ({"x-svc-multi-stage": "initiate", "x-svc-multi-length": "3",
      "x-svc-meta-ttl": "999"}, 40011092),
    ({"x-svc-multi-stage": "initiate", "x-svc-multi-length": "3",
      "Content-Secret": "not ok"}, 40300016),
])
def test_a_bad_initiate_is_refused(storage, headers, code):
    assert_error(storage.put("/bad-init.bin", headers=headers), code)


def test_at_most_ten_thousand_parts_are_accepted(storage):
    assert initiate(storage, "/max.bin", length=10_000 * MIB)


def test_initiate_takes_no_body(storage):
    response = storage.put("/body.bin", b"unexpected", headers={
        "x-svc-multi-stage": "initiate", "x-svc-multi-length": "10"})
    assert_error(response, 40001002)


def test_a_resumable_upload_cannot_target_a_folder(storage):
    storage.mkdir("/a-folder")
    response = storage.put("/a-folder", headers={"x-svc-multi-stage": "initiate",
                                                 "x-svc-multi-length": "3"})
    assert_error(response, 40600001)
