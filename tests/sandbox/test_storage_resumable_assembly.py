"""How a resumable upload's bytes are put together: parts appended to one file per task (never
copied again at completion), refused or racing parts leaving nothing behind, a refused completion
keeping the parts, and a task carried on across a restart of the sandbox."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest
import requests

from tests.sandbox.test_storage_client import StorageClient, assert_error
from tests.sandbox.test_storage_resumable import FILE, MIB, complete, initiate, part
from tests.sandbox_process import SandboxProcess

EMPTY_MD5 = hashlib.md5(b"").hexdigest()


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def storage_dir(sandbox: SandboxProcess) -> Path:
    return sandbox.data_dir / "files" / "storage"


def test_completion_installs_the_parts_file_without_copying_it(storage, sandbox):
    task = initiate(storage, "/nocopy/f.bin")
    part(storage, "/nocopy/f.bin", task, 0, FILE[:MIB])
    part(storage, "/nocopy/f.bin", task, 1, FILE[MIB:2 * MIB])
    task_file = storage_dir(sandbox) / "parts" / task / "data"
    assert task_file.stat().st_size == 2 * MIB  # the parts so far, one after the other
    inode = task_file.stat().st_ino
    part(storage, "/nocopy/f.bin", task, 2, FILE[2 * MIB:])

    assert complete(storage, "/nocopy/f.bin", task).status_code == 201
    blobs = [blob for blob in (storage_dir(sandbox) / "blobs").rglob("*") if blob.is_file()]
    assert [blob.stat().st_ino for blob in blobs] == [inode]  # the same bytes on disk
    assert not (storage_dir(sandbox) / "parts" / task).exists()
    assert storage.get("/nocopy/f.bin").content == FILE


def thread_niceness(pid: int) -> list[int]:
    """The nice value of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat)."""
    values = []
    for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
        fields = stat.read_text().rsplit(")", 1)[1].split()
        values.append(int(fields[16]))
    return values


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_the_whole_file_md5_is_computed_by_a_nicer_thread(storage, sandbox):
    task = initiate(storage, "/nice/f.bin")
    part(storage, "/nice/f.bin", task, 0, FILE[:MIB])  # starts the hashing thread
    assert 10 in thread_niceness(sandbox.process.pid)
    assert 0 in thread_niceness(sandbox.process.pid)  # the request threads keep their priority


def test_a_refused_part_leaves_nothing_in_the_file(storage):
    task = initiate(storage, "/refused/f.bin")
    wrong = b"w" * MIB
    assert_error(part(storage, "/refused/f.bin", task, 0, wrong,
                      **{"Content-MD5": md5(FILE[:MIB])}), 40001001)
    for part_id in range(3):
        data = FILE[part_id * MIB:(part_id + 1) * MIB]
        assert part(storage, "/refused/f.bin", task, part_id, data,
                    **{"Content-MD5": md5(data)}).status_code == 204

    done = complete(storage, "/refused/f.bin", task, **{"x-svc-multi-md5": md5(FILE)})
    assert done.status_code == 201, done.text
    assert storage.head("/refused/f.bin").headers["Content-MD5"] == md5(FILE)
    assert storage.get("/refused/f.bin").content == FILE


def race_for_part_one(storage: StorageClient, path: str) -> None:
    """Different second parts sent at once: one is stored whole, the others refused."""
    task = initiate(storage, path, length=2 * MIB)
    first = b"a" * MIB
    contenders = {name: name.encode() * MIB for name in "bcde"}
    part(storage, path, task, 0, first)
    start = threading.Barrier(len(contenders))
    answers: dict[str, requests.Response] = {}

    def send(name: str) -> None:
        start.wait()
        answers[name] = part(storage, path, task, 1, contenders[name])

    threads = [threading.Thread(target=send, args=(name,)) for name in contenders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    accepted = [name for name, answer in answers.items() if answer.status_code == 204]
    assert len(accepted) == 1, {name: answer.text for name, answer in answers.items()}
    for loser in set(contenders) - set(accepted):  # every part is in: "part already complete"
        assert_error(answers[loser], 40011062)
    expected = first + contenders[accepted[0]]
    done = complete(storage, path, task, **{"x-svc-multi-md5": md5(expected)})
    assert done.status_code == 201, done.text
    assert storage.get(path).content == expected


def test_two_requests_racing_with_the_same_part_store_exactly_one(storage):
    for attempt in range(5):  # the requests do not overlap the same way every time
        race_for_part_one(storage, f"/race/{attempt}.bin")


def test_a_completion_refused_by_the_path_keeps_the_parts_for_another_try(storage):
    task = initiate(storage, "/taken/f.bin", length=3)
    part(storage, "/taken/f.bin", task, 0, b"abc")
    storage.mkdir("/taken/f.bin")  # a folder appears where the file would go

    assert_error(complete(storage, "/taken/f.bin", task), 40600001)
    storage.delete("/taken/f.bin")
    assert complete(storage, "/taken/f.bin", task).status_code == 201
    assert storage.get("/taken/f.bin").content == b"abc"


def test_an_empty_file_is_uploaded_as_one_empty_part(storage):
    task = initiate(storage, "/empty/f.bin", length=0)
    assert part(storage, "/empty/f.bin", task, 0, b"").headers["x-svc-next-part-id"] == "-1"
    done = complete(storage, "/empty/f.bin", task, **{"x-svc-multi-md5": EMPTY_MD5})
    assert done.status_code == 201, done.text
    head = storage.head("/empty/f.bin")
    assert head.headers["x-svc-file-size"] == "0"
    assert head.headers["Content-MD5"] == EMPTY_MD5


def test_a_task_carries_on_after_the_sandbox_restarts(tmp_path):
    """The task's progress lives in the database and its bytes in one file: neither needs the
    running whole-file MD5 kept in memory, which a restart loses."""
    sandbox = SandboxProcess(tmp_path / "restarted")
    sandbox.start()
    try:
        task = initiate(StorageClient(sandbox), "/restart/f.bin")
        part(StorageClient(sandbox), "/restart/f.bin", task, 0, FILE[:MIB])
        part(StorageClient(sandbox), "/restart/f.bin", task, 1, FILE[MIB:2 * MIB])
        sandbox.stop()
        sandbox.start()
        storage = StorageClient(sandbox)
        out_of_order = part(storage, "/restart/f.bin", task, 1, FILE[MIB:2 * MIB])
        assert out_of_order.headers["x-svc-next-part-id"] == "2"
        assert part(storage, "/restart/f.bin", task, 2, FILE[2 * MIB:]).status_code == 204
        done = complete(storage, "/restart/f.bin", task, **{"x-svc-multi-md5": md5(FILE)})
        assert done.status_code == 201, done.text
        assert storage.get("/restart/f.bin").content == FILE
    finally:
        sandbox.stop()
