"""Where stored bytes live: `FILES_DIR/storage/` with `blobs/`, `parts/` and `tmp/` below.

Every write lands in `tmp/` first (streamed in chunks, MD5 computed on the way) and is moved
into place with an atomic rename once the request has been accepted, so no reader ever sees a
half-written file and a refused upload leaves nothing behind.

A resumable upload is the exception: its parts are appended to one file per task,
`parts/<uuid>/data`, that nobody reads before completion; a refused part is cut off again, and
completion installs the file under a second name (a hard link) instead of copying it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
import uuid
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from django.conf import settings

from sandbox.storage.errors import WRONG_CONTENT_LENGTH, StorageError

CHUNK = 64 * 1024
# Request bodies come out of the server's buffer: bigger reads mean fewer Python round trips per
# MiB, and at most 16 threads hold one each.
BODY_CHUNK = 256 * 1024


class Readable(Protocol):
    def read(self, size: int = -1) -> bytes: ...


@dataclass(frozen=True)
class Received:
    """A temporary file and what was learnt while writing it."""

    path: Path
    size: int
    md5: str

    def discard(self) -> None:
        self.path.unlink(missing_ok=True)


def storage_root() -> Path:
    return Path(settings.FILES_DIR) / "storage"


def blob_path(blob: str) -> Path:
    # One Path construction: listings build thousands of these.
    return Path(f"{settings.FILES_DIR}/storage/blobs/{blob[:2]}/{blob}")


def write_blob(blob: str, content: bytes) -> None:
    """Write a small new blob directly (generated content, never a request body)."""
    target = blob_path(blob)
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        os.write(descriptor, content)
    finally:
        os.close(descriptor)


def new_blob_name() -> str:
    return uuid.uuid4().hex


def temp_path() -> Path:
    directory = storage_root() / "tmp"
    directory.mkdir(parents=True, exist_ok=True)
    return directory / uuid.uuid4().hex


def parts_dir(task_uuid: str) -> Path:
    return storage_root() / "parts" / task_uuid


def task_file(task_uuid: str) -> Path:
    """The file a resumable upload's parts are appended to, in order."""
    return parts_dir(task_uuid) / "data"


def place_part(received: Received, task_uuid: str, offset: int) -> None:
    """Copy a received part of a parallel upload into its task's file at `offset`, then drop
    the received copy; FileNotFoundError when the task's directory is gone (cancelled or
    expired meanwhile).

    Parts land where they belong as they arrive, so completion joins nothing: the file is
    complete once every part is placed. The copy stays in the kernel (copy_file_range) where
    it can: the bytes were hashed on their way in and need not pass through Python again.
    """
    descriptor = os.open(task_file(task_uuid), os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        with open(received.path, "rb") as source:
            _copy_range(source.fileno(), descriptor, received.size, offset)
    finally:
        os.close(descriptor)
    received.discard()


def _copy_range(source: int, target: int, length: int, offset: int) -> None:
    done = 0
    in_kernel = hasattr(os, "copy_file_range")  # Linux
    while done < length:
        if in_kernel:
            try:
                copied = os.copy_file_range(source, target, length - done, done, offset + done)
            except OSError:  # a file system that cannot: through memory from here on
                in_kernel = False
                continue
        else:
            chunk = os.pread(source, min(BODY_CHUNK, length - done), done)
            copied = os.pwrite(target, chunk, offset + done) if chunk else 0
        if not copied:
            raise OSError(f"the part ended after {done} of {length} bytes")
        done += copied


def make_task_dir(task_uuid: str) -> None:
    """Made once, at initiate: a part never creates the directory, so a part racing the task's
    expiry finds it gone instead of leaving bytes that no task owns."""
    parts_dir(task_uuid).mkdir(parents=True, exist_ok=True)


def _write(chunks: Iterable[bytes], *, digest_it: bool = True) -> Received:
    target = temp_path()
    digest = hashlib.md5()
    size = 0
    try:
        with open(target, "wb") as handle:
            for chunk in chunks:
                if digest_it:
                    digest.update(chunk)
                handle.write(chunk)
                size += len(chunk)
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    return Received(target, size, digest.hexdigest() if digest_it else "")


def _stream_chunks(stream: Readable, length: int) -> Iterable[bytes]:
    remaining = length
    while remaining > 0:
        chunk = stream.read(min(BODY_CHUNK, remaining))
        if not chunk:
            raise StorageError(WRONG_CONTENT_LENGTH,
                               f"the body ended {remaining} bytes before Content-Length")
        remaining -= len(chunk)
        yield chunk


def _file_chunks(handle: BinaryIO, size: int = CHUNK) -> Iterable[bytes]:
    while chunk := handle.read(size):
        yield chunk


def receive(stream: Readable, length: int, *, digest: bool = True) -> Received:
    """Stream exactly `length` bytes of a request body to a temporary file; its `md5` is ""
    without `digest` (a part that came without Content-MD5: nothing would read it, and the
    file's MD5 is made as parts are placed)."""
    return _write(_stream_chunks(stream, length), digest_it=digest)


def copy_in(source: Path) -> Received:
    """Copy a local file (e.g. a media result) to a temporary file."""
    with open(source, "rb") as handle:
        return _write(_file_chunks(handle))


def read_part(stream: Readable, length: int) -> list[bytes]:
    """The `length` bytes of a resumable part (at most 1 MiB), whole: the server already holds
    them in memory, and they are written, hashed and added to the file's MD5 from there."""
    return list(_stream_chunks(stream, length))


def write_at(path: Path, offset: int, chunks: list[bytes], *, digest: bool) -> str:
    """Write `chunks` (one resumable part) at `offset` of `path` (created if missing, its
    directory never), dropping whatever lay beyond `offset` first: the remains of an attempt
    cut short by a crash. Returns the MD5 of the bytes when `digest`, else "".

    A helper thread writes while this one hashes: both release the GIL, and the client waits
    for the sum of the two otherwise. On any failure the file is cut back to `offset`.
    FileNotFoundError when the directory is gone or the file holds fewer than `offset` bytes
    (the earlier parts are lost).
    """
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    with open(descriptor, "wb", closefd=True) as handle:  # "wb" on a descriptor: no truncation
        size = os.fstat(descriptor).st_size
        if size < offset:
            raise FileNotFoundError(f"{path} holds fewer than {offset} bytes")
        try:
            if size > offset:  # the remains of an attempt the sandbox did not live to refuse
                handle.truncate(offset)
            handle.seek(offset)
            writing = _part_writers.submit(_write_all, handle, chunks)
            try:
                md5 = _md5_of(chunks) if digest else ""
            finally:
                writing.result()  # the handle must not close under the writer
        except BaseException:
            handle.truncate(offset)
            raise
    return md5


# Parts of different uploads are written side by side; the pool only bounds the threads.
_part_writers = ThreadPoolExecutor(max_workers=8, thread_name_prefix="sandbox-storage-write")


def _write_all(handle: BinaryIO, chunks: list[bytes]) -> None:
    for chunk in chunks:
        handle.write(chunk)
    handle.flush()


def _md5_of(chunks: list[bytes]) -> str:
    md5 = hashlib.md5()
    for chunk in chunks:
        md5.update(chunk)
    return md5.hexdigest()


def cut(path: Path, length: int) -> None:
    """Drop the bytes of `path` after `length` (a refused part); nothing if the file is gone."""
    try:
        os.truncate(path, length)
    except FileNotFoundError:
        pass


def second_name(source: Path) -> Path:
    """A temporary hard link to `source`: installing it moves no bytes, and a refused commit
    that discards it leaves `source` whole."""
    target = temp_path()
    os.link(source, target)
    return target


def install(received: Path, blob: str) -> None:
    target = blob_path(blob)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(received, target)


def remove_blob(blob: str) -> None:
    if blob:
        blob_path(blob).unlink(missing_ok=True)


def remove_parts(task_uuid: str) -> None:
    shutil.rmtree(parts_dir(task_uuid), ignore_errors=True)


def wipe() -> None:
    """Every stored byte of the storage service (reset).

    The directory is renamed aside at once, so writes after the reset land in a fresh one, and
    the old tree (possibly hundreds of thousands of files) is deleted in the background.
    """
    root = storage_root()
    if not root.exists():
        return
    trash = root.with_name(f"{root.name}.trash-{uuid.uuid4().hex}")
    os.replace(root, trash)
    threading.Thread(target=shutil.rmtree, args=(trash,), kwargs={"ignore_errors": True},
                     name="sandbox-storage-wipe", daemon=True).start()
