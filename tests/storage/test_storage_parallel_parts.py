"""Resumable uploads with several parts on the wire at once (the provider's parallel mode,
`STORAGE_UPLOAD_PARTS_IN_FLIGHT`), against the real sandbox, and their resume after a crash."""

from __future__ import annotations

import io
import threading

import pytest
from django.core.exceptions import ImproperlyConfigured

from backoffice.env import StrictEnv
from storage.client import FileMD5Mismatch, StorageClient
from storage.resumable import (
    ALL_PARTS_SENT,
    PARALLEL_PART_SIZE,
    PART_SIZE,
    ResumableState,
    resumable_upload,
)
from tests.storage.conftest import md5_of, pseudo_random_bytes

DATA = pseudo_random_bytes(PARALLEL_PART_SIZE * 9 + 12_345)  # ten parts in parallel mode


class Crash(Exception):
    """Stands for the process dying: raised from the progress callback."""


class CountingClient(StorageClient):
    """Counts the parts on the wire at the same moment, and the part answers."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lock = threading.Lock()
        self.in_flight = self.most_in_flight = 0
        self.initiate_headers: dict[str, str] = {}
        self.requests: list[tuple[str, str | None, dict[str, str], str | None]] = []

    def send(self, method, path, **kwargs):
        headers = kwargs.get("headers") or {}
        stage = headers.get("x-svc-multi-stage")
        with self.lock:
            self.requests.append((method, stage, dict(headers), kwargs.get("content_md5")))
        if stage == "initiate":
            self.initiate_headers = dict(headers)
        if stage != "upload":
            return super().send(method, path, **kwargs)
        with self.lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            return super().send(method, path, **kwargs)
        finally:
            with self.lock:
                self.in_flight -= 1


class CorruptingClient(CountingClient):
    """Changes one byte of part 2 the first `times` it is sent: a byte changed on the way,
    which only the whole file's MD5 at completion can catch once parts go without theirs."""

    def __init__(self, *args: object, times: int, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.times = times

    def send(self, method, path, **kwargs):
        headers = kwargs.get("headers") or {}
        if headers.get("x-svc-part-id") == "2" and self.times:
            self.times -= 1
            body = bytearray(kwargs["body"])
            body[100] ^= 0xFF
            kwargs["body"] = bytes(body)
        return super().send(method, path, **kwargs)


def client_of(sandbox, kind=CountingClient, **kwargs) -> CountingClient:
    info = sandbox.info
    return kind(info["storage_url"], info["storage"]["bucket"], info["storage"]["operator"],
                info["storage"]["password"], **kwargs)


@pytest.fixture
def client(sandbox) -> CountingClient:
    return client_of(sandbox)


def stored(client: StorageClient, path: str) -> bytes:
    out = io.BytesIO()
    client.download(path, out)
    return out.getvalue()


def test_parts_go_several_at_once_in_parallel_mode(client):
    saved: list[int] = []
    state = ResumableState()
    status = resumable_upload(client, "/par/file.bin", io.BytesIO(DATA), state=state,
                              on_progress=lambda s: saved.append(s.next_part_id),
                              parts_in_flight=4)
    assert status == 201
    assert client.initiate_headers["x-svc-multi-disorder"] == "true"
    assert client.initiate_headers["x-svc-multi-part-size"] == str(PARALLEL_PART_SIZE)
    assert state.part_size == PARALLEL_PART_SIZE
    assert 1 < client.most_in_flight <= 4
    assert state.parallel and state.next_part_id == ALL_PARTS_SENT
    assert saved[-1] == ALL_PARTS_SENT
    assert [n for n in saved if n >= 0] == sorted(n for n in saved if n >= 0)
    assert stored(client, "/par/file.bin") == DATA


def test_parts_in_parallel_mode_go_without_their_own_md5_and_completion_checks_the_file(
        client):
    resumable_upload(client, "/par/whole.bin", io.BytesIO(DATA), parts_in_flight=4)
    parts = [request for request in client.requests if request[1] == "upload"]
    assert len(parts) == 10 and all(md5 is None for *_rest, md5 in parts)
    [complete] = [request for request in client.requests if request[1] == "complete"]
    assert complete[2]["x-svc-multi-md5"] == md5_of(DATA)


def test_parts_in_order_keep_their_own_md5(client):
    resumable_upload(client, "/par/each.bin", io.BytesIO(DATA))
    parts = [request for request in client.requests if request[1] == "upload"]
    assert parts and all(md5 == md5_of(DATA[int(headers["x-svc-part-id"]) * PART_SIZE:][
        :PART_SIZE]) for _method, _stage, headers, md5 in parts)


def test_a_file_changed_on_the_way_is_sent_again_with_a_new_task(sandbox):
    client = client_of(sandbox, CorruptingClient, times=1)
    state = ResumableState()
    status = resumable_upload(client, "/par/again.bin", io.BytesIO(DATA), state=state,
                              parts_in_flight=4)
    assert status == 201
    initiated = [request for request in client.requests if request[1] == "initiate"]
    assert len(initiated) == 2
    cancelled = [headers["x-svc-multi-uuid"] for method, _stage, headers, _md5
                 in client.requests if method == "DELETE"]
    assert len(cancelled) == 1 and cancelled[0] != state.uuid
    assert stored(client, "/par/again.bin") == DATA


def test_a_file_that_differs_twice_is_refused_and_nothing_is_stored(sandbox):
    client = client_of(sandbox, CorruptingClient, times=2)
    with pytest.raises(FileMD5Mismatch):
        resumable_upload(client, "/par/twice.bin", io.BytesIO(DATA), parts_in_flight=4)
    assert not client.exists("/par/twice.bin")


def test_one_part_in_flight_keeps_the_in_order_mode(client):
    state = ResumableState()
    resumable_upload(client, "/par/ordered.bin", io.BytesIO(DATA), state=state)
    assert "x-svc-multi-disorder" not in client.initiate_headers
    assert "x-svc-multi-part-size" not in client.initiate_headers
    assert client.most_in_flight == 1 and not state.parallel and state.part_size == PART_SIZE
    assert stored(client, "/par/ordered.bin") == DATA


def test_a_crash_mid_upload_resumes_at_the_lowest_part_not_confirmed(client):
    """Parts in flight at the crash reach the provider; sent again on resume, they are
    answered 40001031 (already there) and count as sent."""
    persisted: list[ResumableState] = []

    def save_then_die(state: ResumableState) -> None:
        persisted.append(ResumableState(**vars(state)))
        if state.next_part_id >= 3:
            raise Crash

    with pytest.raises(Crash):
        resumable_upload(client, "/par/crash.bin", io.BytesIO(DATA), state=ResumableState(),
                         on_progress=save_then_die, parts_in_flight=4)
    saved = persisted[-1]
    assert saved.parallel and saved.uuid and 3 <= saved.next_part_id < 10
    assert saved.bytes_sent == saved.next_part_id * PARALLEL_PART_SIZE
    status = resumable_upload(client, "/par/crash.bin", io.BytesIO(DATA), state=saved,
                              parts_in_flight=4, known_md5=md5_of(DATA))
    assert status == 201
    assert stored(client, "/par/crash.bin") == DATA


def test_a_parallel_task_resumed_with_one_part_in_flight_stays_parallel(client):
    persisted: list[ResumableState] = []

    def save_then_die(state: ResumableState) -> None:
        persisted.append(ResumableState(**vars(state)))
        if state.next_part_id >= 2:
            raise Crash

    with pytest.raises(Crash):
        resumable_upload(client, "/par/mode.bin", io.BytesIO(DATA), state=ResumableState(),
                         on_progress=save_then_die, parts_in_flight=3)
    resumable_upload(client, "/par/mode.bin", io.BytesIO(DATA), state=persisted[-1],
                     parts_in_flight=1)
    assert stored(client, "/par/mode.bin") == DATA


def test_parts_in_flight_must_be_at_least_one(client):
    with pytest.raises(ValueError, match="at least 1"):
        resumable_upload(client, "/par/none.bin", io.BytesIO(DATA), parts_in_flight=0)


@pytest.mark.parametrize("value", ["0", "33", "four"])
def test_the_setting_is_refused_outside_one_to_thirty_two(monkeypatch, value):
    monkeypatch.setenv("STORAGE_UPLOAD_PARTS_IN_FLIGHT", value)
    with pytest.raises(ImproperlyConfigured, match="STORAGE_UPLOAD_PARTS_IN_FLIGHT"):
        StrictEnv().int("STORAGE_UPLOAD_PARTS_IN_FLIGHT", 4, minimum=1, maximum=32)


@pytest.mark.django_db(transaction=True)
def test_the_upload_worker_sends_parts_at_once_and_saves_the_mode(provider, media_root,
                                                                  settings):
    """The upload command's tasks go through the worker, which reads the setting; the saved
    task knows its mode, so a resume after a crash goes on in it."""
    from console.services import default_service
    from storage import services
    from storage.models import UploadTask
    from storage.services.uploads import run_upload
    from tests.storage.conftest import queue_upload

    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    settings.STORAGE_UPLOAD_PARTS_IN_FLIGHT = 4
    task = queue_upload(DATA, "/par/worker.bin")
    done = run_upload(task.pk)
    assert done is not None and done.state == UploadTask.State.DONE, done and done.error
    assert done.parallel and done.next_part == ALL_PARTS_SENT
    assert done.part_size == PARALLEL_PART_SIZE  # saved, so a resume reads the same parts
    assert services.storage_client(default_service()).head("/par/worker.bin").md5 == md5_of(DATA)
