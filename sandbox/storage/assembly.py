"""What the sandbox keeps in memory about resumable uploads in progress (it is one process):

- the open tasks as this process last read or wrote them, so that a part costs no SELECT: a
  task changes only under its lock, here, or is removed (completion, expiry, reset), which
  forgets it. The conditional UPDATE of each part still checks the row itself;
- a lock per task, so that one request at a time checks which part comes next and writes it:
  two requests racing with the same part could otherwise write over each other's bytes, and
  the loser's cut-back would take the winner's part with it;
- the running whole-file MD5 of each task's file. After every accepted part a background thread
  hashes the new bytes (from the part still in memory, while the client is busy with its next
  part), so completion neither reads the whole file again nor makes the client wait for it.
  In parallel mode parts come in any order: the thread hashes on from the file whenever the
  parts placed from the start run further without a gap.

The running MD5 is only a head start: completion hashes whatever it does not cover yet, which
is the whole file when the sandbox was restarted since the parts arrived.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from sandbox.storage import disk
from sandbox.storage.models import MultipartTask


class _Running:
    """The MD5 of the first `covered` bytes of a task's file."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.md5 = hashlib.md5()
        self.covered = 0
        # Parallel mode: part id -> size of the parts placed so far (under _registry_lock).
        self.arrived: dict[int, int] = {}

    def advance(self, path: Path, upto: int) -> None:
        """Hash the file on to byte `upto`; FileNotFoundError when it is gone or shorter."""
        with self.lock:
            self._read_on(path, upto)

    def feed(self, path: Path, offset: int, chunks: list[bytes]) -> None:
        """Hash the bytes of a part written at `offset`, from memory; the file fills any gap
        before it (after a restart), and bytes already covered are skipped."""
        with self.lock:
            self._read_on(path, offset)
            position = offset
            for chunk in chunks:
                end = position + len(chunk)
                if end > self.covered:
                    self.md5.update(memoryview(chunk)[self.covered - position :])
                    self.covered = end
                position = end

    def _read_on(self, path: Path, upto: int) -> None:
        if self.covered >= upto:
            return
        with open(path, "rb") as handle:
            handle.seek(self.covered)
            while self.covered < upto:
                chunk = handle.read(min(disk.BODY_CHUNK, upto - self.covered))
                if not chunk:
                    raise FileNotFoundError(f"{path} ends before byte {upto}")
                self.md5.update(chunk)
                self.covered += len(chunk)


class _Held:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


_registry_lock = threading.Lock()
_tasks: dict[str, MultipartTask] = {}
_running: dict[str, _Running] = {}
_held: dict[str, _Held] = {}
# Niceness of the hashing thread: its work is needed only at completion, so it yields the CPU
# to the threads answering requests (measured on two cores: uploads about 3 % faster).
HASHER_NICENESS = 10


def _lower_priority() -> None:
    """Make the calling thread nicer (Linux only: elsewhere a thread id is no process id)."""
    if sys.platform != "linux":
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHER_NICENESS)
    except OSError:  # not allowed here: hash at the normal priority
        pass


# One thread is enough: it only has to keep pace with one request thread per upload, and
# hashing releases the GIL. Jobs of one task run in the order they were queued.
_hasher = ThreadPoolExecutor(
    max_workers=1, thread_name_prefix="sandbox-storage-md5", initializer=_lower_priority
)


@contextmanager
def exclusive(task_uuid: str) -> Iterator[None]:
    """Hold the task's lock; the entry goes away with its last user, so garbage uuids and
    finished tasks leave nothing behind."""
    with _registry_lock:
        held = _held.setdefault(task_uuid, _Held())
        held.users += 1
    try:
        with held.lock:
            yield
    finally:
        with _registry_lock:
            held.users -= 1
            if not held.users:
                del _held[task_uuid]


def known_task(task_uuid: str) -> MultipartTask | None:
    """The open task as last seen here; read and change it only holding its lock."""
    with _registry_lock:
        return _tasks.get(task_uuid)


def remember_task(task: MultipartTask) -> None:
    with _registry_lock:
        _tasks[task.uuid] = task


def drop_task(task_uuid: str) -> None:
    """Read the task from the database next time (its row changed behind our back)."""
    with _registry_lock:
        _tasks.pop(task_uuid, None)


def follow(task_uuid: str, offset: int, chunks: list[bytes]) -> None:
    """A part was accepted at `offset`: hash its bytes (kept until then) in the background."""
    with _registry_lock:
        running = _running.setdefault(task_uuid, _Running())
    _hasher.submit(_feed_quietly, running, disk.task_file(task_uuid), offset, chunks)


def placed(task_uuid: str, part_id: int, size: int, part_size: int) -> None:
    """A part of a parallel upload is in the task's file: once the parts from the start run
    without a gap further than the running MD5 covers, hash on (in the background, from the
    file, which the page cache still holds) to the end of that run."""
    # Not under running.lock, which the hasher holds while it reads: `covered` is only where
    # to start looking, and advancing to a point already covered does nothing.
    with _registry_lock:
        running = _running.setdefault(task_uuid, _Running())
        running.arrived[part_id] = size
        upto = running.covered
        while (following := upto // part_size) in running.arrived:
            upto = following * part_size + running.arrived[following]
            if running.arrived[following] < part_size:
                break  # the last part
    if upto > running.covered:
        _hasher.submit(_advance_quietly, running, disk.task_file(task_uuid), upto)


def _advance_quietly(running: _Running, path: Path, upto: int) -> None:
    try:
        running.advance(path, upto)
    except OSError:
        pass  # expired or reset meanwhile; a completion would hash again and say so


def _feed_quietly(running: _Running, path: Path, offset: int, chunks: list[bytes]) -> None:
    try:
        running.feed(path, offset, chunks)
    except OSError:
        pass  # expired or reset meanwhile; a completion would hash again and say so


def whole_md5(task_uuid: str, length: int) -> str:
    """The MD5 of the first `length` bytes of the task's file (all of it at completion);
    FileNotFoundError when the file is gone or shorter."""
    with _registry_lock:
        running = _running.setdefault(task_uuid, _Running())
    running.advance(disk.task_file(task_uuid), length)
    with running.lock:
        return running.md5.hexdigest()


def forget(task_uuid: str) -> None:
    """The task is completed or expired."""
    with _registry_lock:
        _tasks.pop(task_uuid, None)
        _running.pop(task_uuid, None)


def forget_all() -> None:
    """Reset: every task is gone."""
    with _registry_lock:
        _tasks.clear()
        _running.clear()
