"""Receiving a browser upload: each file is written straight to MEDIA_ROOT/uploads and hashed
as it arrives, so a large file is neither held in memory nor copied a second time."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path
from typing import IO, Any

from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest

from storage.services.uploads import MAX_UPLOAD_BYTES, upload_dir


class LocalCopy(UploadedFile):
    """A received file already in its final place: `local_path`, its `md5` and size."""

    def __init__(
        self, local_path: Path, name: str, content_type: str | None, size: int, md5: str
    ) -> None:
        super().__init__(file=None, name=name, content_type=content_type, size=size)
        self.local_path = local_path
        self.md5 = md5

    def discard(self) -> None:
        """Remove the copy (the request was refused after the file arrived)."""
        self.local_path.unlink(missing_ok=True)

    # Django's File.open also takes mode None (reopen as before); a LocalCopy is always opened
    # anew, by name, with a mode.
    def open(self, mode: str = "rb") -> LocalCopy:  # type: ignore[override]  # noqa: D102
        self.file = open(self.local_path, mode)  # noqa: SIM115 - closed by File.close()
        return self


class LocalCopyUploadHandler(FileUploadHandler):
    """Django upload handler writing each file of the request into `upload_dir()`.

    The stored name is random (never the browser's name, which could be anything); the
    original name travels in the LocalCopy. A request cut short removes its partial file; a
    file above MAX_UPLOAD_BYTES is dropped as it arrives (`too_large` names it) and the rest of
    the request is read and discarded, so the page still gets an answer.
    """

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self._target: IO[bytes] | None = None
        self._path: Path | None = None
        self._digest = hashlib.md5()
        self._received = 0
        self.too_large: list[str] = []

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self._path = upload_dir() / f"{uuid.uuid4().hex}.upload"
        self._target = open(self._path, "wb")  # noqa: SIM115 - closed in file_complete
        self._digest = hashlib.md5()
        self._received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        assert self._target is not None
        self._received += len(raw_data)
        if self._received > MAX_UPLOAD_BYTES:
            self.too_large.append(self.file_name or "upload")
            self.upload_interrupted()
            raise StopUpload(connection_reset=False)
        self._target.write(raw_data)
        self._digest.update(raw_data)
        return None  # consumed: no later handler sees the data

    def file_complete(self, file_size: int) -> LocalCopy | None:
        if self._target is None or self._path is None:
            return None
        self._target.close()
        self._target = None
        return LocalCopy(
            self._path,
            name=self.file_name or "upload",
            content_type=self.content_type,
            size=file_size,
            md5=self._digest.hexdigest(),
        )

    def upload_interrupted(self) -> None:
        if self._target is not None:
            self._target.close()
            self._target = None
        if self._path is not None:
            self._path.unlink(missing_ok=True)
