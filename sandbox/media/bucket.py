"""Reading sources from and writing results to the storage emulator, through its internal API
(`sandbox.storage.store`) only: media never touches the storage tables or the file layout.

A stored file's bytes may be unlinked by a concurrent overwrite or delete, so each source is
opened (or read) right after it is resolved, and a file that vanished in between is answered
as missing, like one that never existed.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from sandbox.media.errors import bad, failed, missing
from sandbox.storage import store
from sandbox.storage.errors import StorageError
from sandbox.storage.store import StoredObject

MAX_PLAYLIST_BYTES = 16 * 1024 * 1024
PLAYLIST_MIME = "application/vnd.apple.mpegurl"
PLAYLIST_SIGNATURE = b"#EXTM3U"


def source(service: str, path: str, field: str, described: str = "") -> StoredObject:
    """The stored file at `path`: 404 when there is none, 400 when it is a folder.

    `described` names the file in messages when it is not the field's own value (a segment
    of the playlist the field names)."""
    shown = described or path
    try:
        found = store.resolve(service, path)
    except StorageError as error:
        raise bad(field, f"{shown}: {error.explanation}") from None
    if found is None:
        raise missing(field, f"{shown} does not exist{bucket_hint(service, path)}")
    if found.is_folder or found.local_path is None:
        raise bad(field, f"{shown} is a folder, not a file")
    return found


def bucket_hint(service: str, path: str) -> str:
    """Paths are inside the bucket; a path that repeats the bucket name gets a pointer."""
    if path.startswith(f"/{service}/"):
        return f" (paths are inside the bucket: leave out /{service})"
    return ""


def read_bytes(found: StoredObject, field: str, limit: int = MAX_PLAYLIST_BYTES) -> bytes:
    if found.size > limit:
        raise failed(f"{field}: {found.path} is {found.size} bytes; a playlist of at most "
                     f"{limit} bytes can be read")
    assert found.local_path is not None
    try:
        return found.local_path.read_bytes()
    except FileNotFoundError:
        raise missing(field, f"{found.path} does not exist") from None


def looks_like_playlist(found: StoredObject) -> bool:
    """Whether the file starts like an M3U8 playlist (after a BOM or blank space)."""
    assert found.local_path is not None
    try:
        with open(found.local_path, "rb") as handle:
            head = handle.read(64)
    except FileNotFoundError:
        return False
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(PLAYLIST_SIGNATURE)


def save(service: str, path: str, local: Path, content_type: str) -> StoredObject:
    """Store a result at `path` (`save_as`); a place storage refuses is a 400 on save_as."""
    try:
        return store.save_from_file(service, path, local, content_type=content_type)
    except StorageError as error:
        if error.status >= 500:
            raise failed(f"save_as: storage failed to write {path}: {error.explanation}") from None
        raise bad("save_as", f"cannot write {path}: {error.explanation}") from None


def save_text(service: str, path: str, text: str) -> StoredObject:
    """Store a written playlist at `path` (`save_as`)."""
    with workspace() as work:
        local = work / "playlist.m3u8"
        local.write_text(text, encoding="utf-8")
        return save(service, path, local, PLAYLIST_MIME)


@contextmanager
def workspace() -> Iterator[Path]:
    """A private temporary directory under the data directory, removed afterwards."""
    root = Path(settings.FILES_DIR) / "media-work"
    root.mkdir(parents=True, exist_ok=True)
    directory = Path(tempfile.mkdtemp(dir=root))
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)
