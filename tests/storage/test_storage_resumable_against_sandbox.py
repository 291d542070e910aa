"""The resumable-upload protocol through the client against the real sandbox: order, MD5s,
completion codes, expiry and resuming from a saved state."""

from __future__ import annotations

import hashlib
import io

import pytest

from storage.client import (
    FileMD5Mismatch,
    MultipartCompleted,
    MultipartIncomplete,
    MultipartNotFound,
    PartIdError,
)
from storage.resumable import PART_SIZE, ResumableState, resumable_upload
from tests.storage.conftest import md5_of, pseudo_random_bytes, synced_client


def initiate(client, path: str, length: int) -> str:
    response = client.send("PUT", path, headers={"x-svc-multi-stage": "initiate",
                                                 "x-svc-multi-length": str(length)},
                           body=b"", idempotent=False)
    return response.headers["x-svc-multi-uuid"]


def send_part(client, path: str, uuid: str, part_id: int, data: bytes):
    return client.send("PUT", path, headers={"x-svc-multi-stage": "upload",
                                             "x-svc-multi-uuid": uuid,
                                             "x-svc-part-id": str(part_id)},
                       body=data, content_md5=md5_of(data), idempotent=False)


def complete(client, path: str, uuid: str, whole_md5: str):
    return client.send("PUT", path, headers={"x-svc-multi-stage": "complete",
                                             "x-svc-multi-uuid": uuid,
                                             "x-svc-multi-md5": whole_md5},
                       body=b"", idempotent=False)


def test_a_new_file_completes_with_201_and_an_overwrite_with_204(sandbox_storage):
    data = pseudo_random_bytes(PART_SIZE * 2 + 10)
    assert resumable_upload(sandbox_storage, "/r/a.bin", io.BytesIO(data)) == 201
    assert resumable_upload(sandbox_storage, "/r/a.bin", io.BytesIO(data[::-1])) == 204
    assert sandbox_storage.head("/r/a.bin").md5 == md5_of(data[::-1])


def test_a_part_sent_out_of_order_is_refused_with_the_expected_part(sandbox_storage):
    data = pseudo_random_bytes(PART_SIZE * 3)
    uuid = initiate(sandbox_storage, "/r/order.bin", len(data))
    send_part(sandbox_storage, "/r/order.bin", uuid, 0, data[:PART_SIZE])
    with pytest.raises(PartIdError) as refused:
        send_part(sandbox_storage, "/r/order.bin", uuid, 2, data[2 * PART_SIZE:])
    assert refused.value.code == 40011061
    assert refused.value.next_part_id == 1


def test_a_wrong_whole_file_md5_is_refused_at_completion(sandbox_storage):
    data = pseudo_random_bytes(PART_SIZE + 5)
    uuid = initiate(sandbox_storage, "/r/md5.bin", len(data))
    send_part(sandbox_storage, "/r/md5.bin", uuid, 0, data[:PART_SIZE])
    send_part(sandbox_storage, "/r/md5.bin", uuid, 1, data[PART_SIZE:])
    with pytest.raises(FileMD5Mismatch) as refused:
        complete(sandbox_storage, "/r/md5.bin", uuid, "0" * 32)
    assert refused.value.code == 40011060


def test_completing_before_every_part_is_sent_is_refused(sandbox_storage):
    data = pseudo_random_bytes(PART_SIZE * 2)
    uuid = initiate(sandbox_storage, "/r/early.bin", len(data))
    send_part(sandbox_storage, "/r/early.bin", uuid, 0, data[:PART_SIZE])
    with pytest.raises(MultipartIncomplete):
        complete(sandbox_storage, "/r/early.bin", uuid, md5_of(data))


def test_a_completed_task_refuses_a_second_completion(sandbox_storage):
    data = b"z" * 100
    uuid = initiate(sandbox_storage, "/r/twice.bin", len(data))
    send_part(sandbox_storage, "/r/twice.bin", uuid, 0, data)
    complete(sandbox_storage, "/r/twice.bin", uuid, md5_of(data))
    with pytest.raises(MultipartCompleted):
        complete(sandbox_storage, "/r/twice.bin", uuid, md5_of(data))


def test_an_unknown_task_is_not_found(sandbox_storage):
    with pytest.raises(MultipartNotFound):
        send_part(sandbox_storage, "/r/ghost.bin", "00000000-0000-4000-8000-000000000000", 0,
                  b"x")


def test_a_saved_state_resumes_at_the_next_part(sandbox_storage):
    data = pseudo_random_bytes(PART_SIZE * 4 + 123)
    uuid = initiate(sandbox_storage, "/r/resume.bin", len(data))
    for part in range(2):
        send_part(sandbox_storage, "/r/resume.bin", uuid, part,
                  data[part * PART_SIZE:(part + 1) * PART_SIZE])
    seen: list[int] = []
    state = ResumableState(uuid=uuid, next_part_id=2)
    status = resumable_upload(sandbox_storage, "/r/resume.bin", io.BytesIO(data), state=state,
                              on_progress=lambda s: seen.append(s.next_part_id))
    assert status == 201
    assert seen == [3, 4, -1]
    assert sandbox_storage.head("/r/resume.bin").md5 == hashlib.md5(data).hexdigest()


def test_a_task_expired_after_24_hours_restarts_cleanly(sandbox, sandbox_storage):
    data = pseudo_random_bytes(PART_SIZE * 2 + 1)
    uuid = initiate(sandbox_storage, "/r/expired.bin", len(data))
    send_part(sandbox_storage, "/r/expired.bin", uuid, 0, data[:PART_SIZE])
    sandbox.advance(25 * 3600)
    later = synced_client(sandbox)
    state = ResumableState(uuid=uuid, next_part_id=1)
    assert resumable_upload(later, "/r/expired.bin", io.BytesIO(data), state=state) == 201
    assert state.uuid != uuid
    assert later.head("/r/expired.bin").md5 == md5_of(data)
