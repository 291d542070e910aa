r"""Resumable upload against a small in-test fake of the provider's multipart protocol.

Signatures (D='Wed, 29 Oct 2014 02:26:58 GMT', PW=$(printf '%s' password | md5sum)):
    printf '%s' "PUT&/demo/big.bin&$D[&<part md5>]" \
        | openssl dgst -sha1 -hmac "$PW" -binary | base64
Part MD5s: head -c 1048576 /dev/zero | md5sum; printf '%s' 0123456789 | md5sum.
"""

import hashlib
import io
import json
from dataclasses import replace

import pytest
import responses

from storage.client import (
    BadContentMD5,
    FileMD5Mismatch,
    MultipartCompleted,
    MultipartNotFound,
    PartIdError,
    RetryPolicy,
    ServiceUnavailable,
    StorageClient,
    StorageProtocolError,
)
from storage.resumable import (
    MAX_LENGTH,
    PART_SIZE,
    ResumableState,
    part_count,
    resumable_upload,
)
from storage.rules import RuleViolation

BASE = "http://storage.test:8103"
URL = f"{BASE}/demo/big.bin"
NOW = 1414549618.0
UUID = "9b2b3b5e-2a6f-4b55-8a36-0a1a5f6b7c01"
UUID_2 = "0f0e0d0c-0b0a-4909-8807-060504030201"


def body_of(request) -> bytes:
    """A part's body is handed over as an iterable (it reports when it was sent)."""
    return request.body if isinstance(request.body, bytes) else b"".join(request.body)


class FakeMultipart:
    """Just enough of the provider: sequential parts, expiry, and overwrite detection."""

    def __init__(self, uuids=(UUID, UUID_2), exists=False):
        self.uuids = list(uuids)
        self.tasks: dict[str, dict] = {}
        self.requests: list = []
        self.exists = exists
        self.stored: bytes | None = None
        self.fail_next: list[tuple[int, dict, str]] = []

    def __call__(self, request):
        self.requests.append(request)
        if self.fail_next:
            return self.fail_next.pop(0)
        stage = request.headers["x-svc-multi-stage"]
        if stage == "initiate":
            uuid = self.uuids.pop(0)
            length = int(request.headers["x-svc-multi-length"])
            self.tasks[uuid] = {"length": length, "next": 0, "data": b""}
            return 204, {"x-svc-multi-uuid": uuid, "x-svc-next-part-id": "0"}, ""
        task = self.tasks.get(request.headers["x-svc-multi-uuid"])
        if task is None:
            return self.error(40001035, "multipart uuid not found")
        if stage == "upload":
            return self.upload(task, request)
        if stage == "complete":
            if task["next"] != -1:
                return self.error(40001037, "incomplete multipart parts")
            if request.headers.get("x-svc-multi-md5") != hashlib.md5(task["data"]).hexdigest():
                return self.error(40011060, "file md5 not match")
            status = 204 if self.exists else 201
            self.stored = task["data"]
            return status, {"x-svc-multi-uuid": request.headers["x-svc-multi-uuid"]}, ""
        return self.error(40000000, "bad stage")

    def upload(self, task, request):
        part_id = int(request.headers["x-svc-part-id"])
        if part_id != task["next"]:
            headers = {"x-svc-next-part-id": str(task["next"])}
            return 400, headers, json.dumps({"msg": "part id error", "code": 40011061, "id": "x"})
        body = body_of(request)
        if request.headers.get("Content-MD5") != hashlib.md5(body).hexdigest():
            return self.error(40001001, "wrong content-md5")
        task["data"] += body
        done = len(task["data"]) >= task["length"]
        task["next"] = -1 if done else part_id + 1
        return 204, {"x-svc-next-part-id": str(task["next"])}, ""

    @staticmethod
    def error(code, msg):
        return code // 100000, {}, json.dumps({"msg": msg, "code": code, "id": "fake"})

    def stages(self):
        return [
            (r.headers["x-svc-multi-stage"], r.headers.get("x-svc-part-id")) for r in self.requests
        ]


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


def make_client() -> StorageClient:
    return StorageClient(
        BASE, "demo", "ops", "password", clock=lambda: NOW, retry=RetryPolicy(sleep=lambda s: None)
    )


def install(mock, fake: FakeMultipart) -> FakeMultipart:
    mock.add_callback(responses.PUT, URL, callback=fake)
    return fake


def payload_of(length: int) -> bytes:
    return bytes(index % 251 for index in range(length))


def progress_log():
    seen: list[ResumableState] = []
    return seen, lambda state: seen.append(replace(state))


def test_part_count_rounds_up_to_whole_parts():
    assert part_count(1) == 1
    assert part_count(PART_SIZE) == 1
    assert part_count(PART_SIZE + 1) == 2


def test_it_uploads_parts_in_order_with_their_md5s_and_completes(mock):
    fake = install(mock, FakeMultipart())
    data = payload_of(2 * PART_SIZE + PART_SIZE // 2)
    seen, on_progress = progress_log()
    status = resumable_upload(
        make_client(),
        "big.bin",
        io.BytesIO(data),
        on_progress=on_progress,
        content_type="video/mp4",
        metadata={"author": "Ann", "ttl": 3},
    )
    assert status == 201
    assert fake.stored == data
    assert fake.stages() == [
        ("initiate", None),
        ("upload", "0"),
        ("upload", "1"),
        ("upload", "2"),
        ("complete", None),
    ]
    initiate, *parts, complete = fake.requests
    assert initiate.headers["x-svc-multi-length"] == str(len(data))
    assert initiate.headers["x-svc-multi-type"] == "video/mp4"
    assert initiate.headers["x-svc-meta-author"] == "Ann"
    assert initiate.headers["x-svc-meta-ttl"] == "3"
    assert initiate.headers["Content-Length"] == "0"
    assert [int(part.headers["Content-Length"]) for part in parts] == [
        PART_SIZE,
        PART_SIZE,
        PART_SIZE // 2,
    ]
    for number, part in enumerate(parts):
        chunk = data[number * PART_SIZE : (number + 1) * PART_SIZE]
        assert part.headers["Content-MD5"] == hashlib.md5(chunk).hexdigest()
        assert part.headers["x-svc-multi-uuid"] == UUID
    assert complete.headers["x-svc-multi-md5"] == hashlib.md5(data).hexdigest()
    assert complete.headers["x-svc-multi-uuid"] == UUID
    assert [(s.uuid, s.next_part_id, s.bytes_sent) for s in seen] == [
        (UUID, 0, 0),
        (UUID, 1, PART_SIZE),
        (UUID, 2, 2 * PART_SIZE),
        (UUID, -1, len(data)),
    ]


def test_a_known_whole_file_md5_is_sent_as_given_and_checked_by_the_provider(mock):
    fake = install(mock, FakeMultipart())
    data = payload_of(PART_SIZE + 10)
    known = hashlib.md5(data).hexdigest()
    assert resumable_upload(make_client(), "big.bin", io.BytesIO(data), known_md5=known) == 201
    assert fake.requests[-1].headers["x-svc-multi-md5"] == known
    with pytest.raises(FileMD5Mismatch):  # a stale known MD5 is caught at completion
        resumable_upload(make_client(), "big.bin", io.BytesIO(data), known_md5="0" * 32)


def test_a_malformed_known_md5_is_refused_before_any_call(mock):
    with pytest.raises(RuleViolation, match="Content-MD5"):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b"abc"), known_md5="abc")
    assert len(mock.calls) == 0


def test_it_signs_every_stage_exactly(mock):
    fake = install(mock, FakeMultipart())
    data = bytes(PART_SIZE) + b"0123456789"
    resumable_upload(make_client(), "big.bin", io.BytesIO(data))
    signatures = [request.headers["Authorization"] for request in fake.requests]
    assert signatures == [
        "SVC ops:Kw5LGylbMSrCYlKFtlma9/fCQdw=",  # "PUT&/demo/big.bin&$D"
        # "PUT&/demo/big.bin&$D&b6d81b360a5672d80c27430f39153e2c" (1 MiB of zeros)
        "SVC ops:9wLS3/oiwqo7SZEb0EiLrlbQiJU=",
        # "PUT&/demo/big.bin&$D&781e5e245d69b566979b86e28d23f2c7" (md5 of 0123456789)
        "SVC ops:slxs8IdbDiwWoJae7JKZMW2AalY=",
        "SVC ops:Kw5LGylbMSrCYlKFtlma9/fCQdw=",  # "PUT&/demo/big.bin&$D"
    ]
    # whole file: (head -c 1048576 /dev/zero; printf 0123456789) | md5sum
    assert fake.requests[-1].headers["x-svc-multi-md5"] == "514eeb296dddb3356ffc0aafeb4f5b40"


def test_a_file_of_exact_parts_has_no_empty_last_part(mock):
    fake = install(mock, FakeMultipart())
    data = payload_of(2 * PART_SIZE)
    resumable_upload(make_client(), "big.bin", io.BytesIO(data))
    assert fake.stages() == [
        ("initiate", None),
        ("upload", "0"),
        ("upload", "1"),
        ("complete", None),
    ]


def test_it_defaults_the_type_and_reports_an_overwrite_as_204(mock, tmp_path):
    fake = install(mock, FakeMultipart(exists=True))
    source = tmp_path / "big.bin"
    source.write_bytes(payload_of(1000))
    assert resumable_upload(make_client(), "/big.bin", source) == 204
    assert fake.requests[0].headers["x-svc-multi-type"] == "application/octet-stream"


def test_it_resumes_at_the_saved_part_without_a_new_task(mock):
    fake = install(mock, FakeMultipart())
    data = payload_of(3 * PART_SIZE)
    # A first run that stopped after two parts: replay it against the fake.
    fake.tasks[UUID] = {"length": len(data), "next": 2, "data": data[: 2 * PART_SIZE]}
    fake.uuids.remove(UUID)
    state = ResumableState(uuid=UUID, next_part_id=2, bytes_sent=0)
    seen, on_progress = progress_log()
    status = resumable_upload(
        make_client(), "big.bin", io.BytesIO(data), state=state, on_progress=on_progress
    )
    assert status == 201
    assert fake.stages() == [("upload", "2"), ("complete", None)]
    assert fake.stored == data
    assert [(s.next_part_id, s.bytes_sent) for s in seen] == [(-1, len(data))]
    assert state.next_part_id == -1  # the caller's object is kept up to date


def test_a_resumed_state_reports_the_bytes_the_provider_holds_even_if_a_part_fails(mock):
    fake = install(mock, FakeMultipart())
    fake.fail_next = [FakeMultipart.error(40001001, "wrong content-md5")]
    state = ResumableState(uuid=UUID, next_part_id=2, bytes_sent=0)
    with pytest.raises(BadContentMD5):
        resumable_upload(
            make_client(), "big.bin", io.BytesIO(payload_of(3 * PART_SIZE)), state=state
        )
    assert (state.uuid, state.next_part_id, state.bytes_sent) == (UUID, 2, 2 * PART_SIZE)


def test_a_saved_state_with_every_part_sent_only_completes(mock):
    fake = install(mock, FakeMultipart())
    data = payload_of(PART_SIZE + 5)
    fake.tasks[UUID] = {"length": len(data), "next": -1, "data": data}
    state = ResumableState(uuid=UUID, next_part_id=-1)
    assert resumable_upload(make_client(), "big.bin", io.BytesIO(data), state=state) == 201
    assert fake.stages() == [("complete", None)]


def test_a_part_id_error_moves_to_the_part_the_provider_expects(mock):
    fake = install(mock, FakeMultipart())
    data = payload_of(3 * PART_SIZE)
    # The saved state lags: parts 0 and 1 arrived but their answers were lost before saving.
    fake.tasks[UUID] = {"length": len(data), "next": 2, "data": data[: 2 * PART_SIZE]}
    state = ResumableState(uuid=UUID, next_part_id=0)
    seen, on_progress = progress_log()
    resumable_upload(
        make_client(), "big.bin", io.BytesIO(data), state=state, on_progress=on_progress
    )
    assert fake.stages() == [("upload", "0"), ("upload", "2"), ("complete", None)]
    assert fake.stored == data
    assert [(s.next_part_id, s.bytes_sent) for s in seen] == [
        (2, 2 * PART_SIZE),
        (-1, len(data)),
    ]


def test_a_repeated_part_id_error_for_the_same_part_is_raised(mock):
    fake = install(mock, FakeMultipart())
    error = (400, {"x-svc-next-part-id": "0"}, '{"msg":"part id error","code":40011061,"id":"x"}')
    fake.tasks[UUID] = {"length": 10, "next": 0, "data": b""}
    fake.fail_next = [error]
    with pytest.raises(PartIdError):
        resumable_upload(
            make_client(), "big.bin", io.BytesIO(b"0123456789"), state=ResumableState(uuid=UUID)
        )


def test_an_expired_task_restarts_from_part_zero_with_a_new_task(mock):
    fake = install(mock, FakeMultipart(uuids=[UUID_2]))
    data = payload_of(2 * PART_SIZE + 1)
    state = ResumableState(uuid=UUID, next_part_id=1, bytes_sent=PART_SIZE)  # gone after 24 h
    seen, on_progress = progress_log()
    status = resumable_upload(
        make_client(), "big.bin", io.BytesIO(data), state=state, on_progress=on_progress
    )
    assert status == 201
    assert fake.stored == data
    assert fake.stages() == [
        ("upload", "1"),
        ("initiate", None),
        ("upload", "0"),
        ("upload", "1"),
        ("upload", "2"),
        ("complete", None),
    ]
    assert [(s.uuid, s.next_part_id, s.bytes_sent) for s in seen] == [
        (None, 0, 0),  # the caller learns the old task is gone
        (UUID_2, 0, 0),
        (UUID_2, 1, PART_SIZE),
        (UUID_2, 2, 2 * PART_SIZE),
        (UUID_2, -1, len(data)),
    ]


def test_a_task_that_expires_again_is_not_restarted_twice(mock):
    fake = install(mock, FakeMultipart())
    not_found = FakeMultipart.error(40001035, "multipart uuid not found")
    fake.fail_next = [not_found, (204, {"x-svc-multi-uuid": UUID}, ""), not_found]
    with pytest.raises(MultipartNotFound):
        resumable_upload(
            make_client(), "big.bin", io.BytesIO(b"abc"), state=ResumableState(uuid=UUID_2)
        )
    assert len(fake.requests) == 3


def test_a_lost_completion_answer_surfaces_as_completed(mock):
    fake = install(mock, FakeMultipart())
    fake.fail_next = [FakeMultipart.error(40001036, "completed multipart")]
    state = ResumableState(uuid=UUID, next_part_id=-1)
    with pytest.raises(MultipartCompleted):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b"abc"), state=state)


def test_a_part_answered_5xx_is_retried_with_the_same_bytes(mock):
    fake = install(mock, FakeMultipart())
    data = payload_of(PART_SIZE + 10)
    fake.tasks[UUID] = {"length": len(data), "next": 0, "data": b""}
    fake.fail_next = [(503, {}, '{"msg":"service unavailable","code":50300001,"id":"x"}')]
    resumable_upload(make_client(), "big.bin", io.BytesIO(data), state=ResumableState(uuid=UUID))
    assert fake.stages() == [("upload", "0"), ("upload", "0"), ("upload", "1"), ("complete", None)]
    assert body_of(fake.requests[0]) == body_of(fake.requests[1]) == data[:PART_SIZE]


def test_initiate_is_not_retried(mock):
    fake = install(mock, FakeMultipart())
    fake.fail_next = [(503, {}, '{"msg":"service unavailable","code":50300001,"id":"x"}')]
    with pytest.raises(ServiceUnavailable):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b"abc"))
    assert len(fake.requests) == 1


def test_a_progress_callback_failure_stops_the_upload(mock):
    fake = install(mock, FakeMultipart())

    def failing(state):
        raise RuntimeError("database down")

    with pytest.raises(RuntimeError, match="database down"):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b"abc"), on_progress=failing)
    assert fake.stages() == [("initiate", None)]


def test_an_invalid_uuid_from_initiate_is_a_protocol_error(mock):
    fake = install(mock, FakeMultipart())
    fake.fail_next = [(204, {"x-svc-multi-uuid": "short", "x-svc-next-part-id": "0"}, "")]
    with pytest.raises(StorageProtocolError, match="uuid"):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b"abc"))


def test_a_next_part_id_out_of_sequence_is_a_protocol_error(mock):
    fake = install(mock, FakeMultipart())
    fake.tasks[UUID] = {"length": 3, "next": 0, "data": b""}
    fake.fail_next = [(204, {"x-svc-next-part-id": "5"}, "")]
    with pytest.raises(StorageProtocolError, match="expects part 5"):
        resumable_upload(
            make_client(), "big.bin", io.BytesIO(b"abc"), state=ResumableState(uuid=UUID)
        )


def test_a_saved_part_beyond_the_file_is_refused(mock):
    state = ResumableState(uuid=UUID, next_part_id=4)
    with pytest.raises(StorageProtocolError, match="file changed"):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b"abc"), state=state)
    assert len(mock.calls) == 0


def test_an_empty_file_is_refused_before_any_call(mock):
    with pytest.raises(ValueError, match="empty file"):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b""))
    assert len(mock.calls) == 0


def test_a_file_needing_more_than_10000_parts_is_refused(mock, tmp_path):
    sparse = tmp_path / "huge.bin"
    with open(sparse, "wb") as handle:
        handle.truncate(MAX_LENGTH + 1)  # sparse: no disk space used
    with pytest.raises(ValueError, match="10000 parts"):
        resumable_upload(make_client(), "big.bin", sparse)
    assert len(mock.calls) == 0


def test_bad_metadata_and_paths_are_refused_before_any_call(mock):
    with pytest.raises(RuleViolation, match="x-svc-meta-ttl"):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b"a"), metadata={"ttl": 999})
    with pytest.raises(RuleViolation, match="empty segment"):
        resumable_upload(make_client(), "a//big.bin", io.BytesIO(b"a"))
    with pytest.raises(RuleViolation, match="x-svc-multi-type"):
        resumable_upload(make_client(), "big.bin", io.BytesIO(b"a"), content_type="bad\ntype")
    assert len(mock.calls) == 0
