"""Where stored bytes live: `FILES_DIR/storage/` with `blobs/`, `parts/` and `tmp/` below.

Every write lands in `tmp/` first (streamed in chunks, MD5 computed on the way) and is moved
into place with an atomic rename once the request has been accepted, so no reader ever sees a
half-written file and a refused upload leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from django.conf import settings

from sandbox.storage.errors import BAD_CONTENT_LENGTH, StorageError

CHUNK = 64 * 1024


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


def part_path(task_uuid: str, part_id: int) -> Path:
    return parts_dir(task_uuid) / f"{part_id:05d}"


def _write(chunks: Iterable[bytes]) -> Received:
    target = temp_path()
    digest = hashlib.md5()
    size = 0
    try:
        with open(target, "wb") as handle:
            for chunk in chunks:
                digest.update(chunk)
                handle.write(chunk)
                size += len(chunk)
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    return Received(target, size, digest.hexdigest())


def _stream_chunks(stream: Readable, length: int) -> Iterable[bytes]:
    remaining = length
    while remaining > 0:
        chunk = stream.read(min(CHUNK, remaining))
        if not chunk:
            raise StorageError(BAD_CONTENT_LENGTH,
                               f"the body ended {remaining} bytes before Content-Length")
        remaining -= len(chunk)
        yield chunk


def _file_chunks(handle: BinaryIO) -> Iterable[bytes]:
    while chunk := handle.read(CHUNK):
        yield chunk


def receive(stream: Readable, length: int) -> Received:
    """Stream exactly `length` bytes of a request body to a temporary file."""
    return _write(_stream_chunks(stream, length))


def copy_in(source: Path) -> Received:
    """Copy a local file (e.g. a media result) to a temporary file."""
    with open(source, "rb") as handle:
        return _write(_file_chunks(handle))


def concatenate(sources: list[Path]) -> Received:
    """Join the parts of a resumable upload, in order, into one temporary file."""

    def chunks() -> Iterable[bytes]:
        for source in sources:
            with open(source, "rb") as handle:
                yield from _file_chunks(handle)

    return _write(chunks())


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
