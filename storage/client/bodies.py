"""Request bodies streamed from files, and the file helpers behind them: memory stays flat
whatever a file's size, and a body can be sent again on a retry."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import IO, BinaryIO

CHUNK_SIZE = 64 * 1024

Source = BinaryIO | str | os.PathLike[str]


class FileBody:
    """A fixed byte range of a seekable file, sent as a request body in chunks.

    `requests` learns the length from `__len__` (so it sends Content-Length, never chunked
    encoding) and `http.client` pulls blocks through `read`; the range is exact even if the
    file grows meanwhile, and `rewind` lets the same body be sent again on a retry.
    """

    def __init__(self, file: IO[bytes], start: int, length: int) -> None:
        self._file = file
        self._start = start
        self._length = length
        self._remaining = length
        self.rewind()

    def rewind(self) -> None:
        self._file.seek(self._start)
        self._remaining = self._length

    def __len__(self) -> int:
        return self._length

    def read(self, size: int = -1) -> bytes:
        if self._remaining <= 0:
            return b""
        wanted = self._remaining if size is None or size < 0 else min(size, self._remaining)
        data = self._file.read(wanted)
        self._remaining -= len(data)
        return data

    def __iter__(self) -> Iterator[bytes]:
        while chunk := self.read(CHUNK_SIZE):
            yield chunk


class NotifyingBody:
    """Bytes sent as a request body that call `on_sent` once the last byte is handed to the
    socket: from then on the sender only waits for the answer, so work started there (reading
    the next part of a file) no longer competes with sending this one.

    `requests` learns the length from `__len__` and sends the bytes in one piece; a retry
    iterates again and calls `on_sent` again.
    """

    def __init__(self, data: bytes, on_sent: Callable[[], None]) -> None:
        self.data = data
        self._on_sent = on_sent

    def __len__(self) -> int:
        return len(self.data)

    def __iter__(self) -> Iterator[bytes]:
        yield self.data
        self._on_sent()


Body = bytes | FileBody | NotifyingBody


def file_size(file: IO[bytes]) -> int:
    """Size of a seekable binary file; refuses streams we could not replay or hash."""
    if not file.seekable():
        raise ValueError("the file must be seekable (a regular file or an in-memory buffer)")
    position = file.tell()
    size = file.seek(0, os.SEEK_END)
    file.seek(position)
    return size


def file_md5(file: IO[bytes]) -> str:
    """MD5 hex of a whole seekable file, read chunk by chunk so memory stays flat; the file
    is left at its start, ready to be sent."""
    digest = hashlib.md5()
    file.seek(0)
    while chunk := file.read(CHUNK_SIZE):
        digest.update(chunk)
    file.seek(0)
    return digest.hexdigest()


def open_source(source: Source, stack: ExitStack) -> IO[bytes]:
    """A binary file for `source`: opened (and closed by `stack`) when it is a path."""
    if isinstance(source, str | os.PathLike):
        return stack.enter_context(open(source, "rb"))
    mode = getattr(source, "mode", "rb")
    if isinstance(mode, str) and "b" not in mode:
        raise ValueError("open the file in binary mode ('rb')")
    return source
