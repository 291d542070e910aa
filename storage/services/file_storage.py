"""A Django file storage in the merchant's own bucket, so kept files are shared by every host.

Files the back-office keeps between requests (an SMS import's source file, for one) go through
Django's default storage. On one machine that may stay the local MEDIA_ROOT; across machines
`FILE_STORAGE=bucket` puts them in a private folder of the configured bucket
(`FILE_STORAGE_FOLDER`), reached with the project's own storage client, so a file written
through one web node is read or deleted through any other.
"""

from __future__ import annotations

import io
import posixpath
from typing import BinaryIO, cast

from django.conf import settings
from django.core.files.base import ContentFile, File
from django.core.files.storage import Storage
from django.utils.deconstruct import deconstructible

from storage import paths
from storage.client import NotFound, StorageClient
from storage.services.connection import storage_client

DEFAULT_FOLDER = "/backoffice-private"


@deconstructible
class BucketStorage(Storage):
    """Django's Storage API over the provider's object storage (one PUT per file)."""

    def __init__(self, folder: str | None = None, client: StorageClient | None = None) -> None:
        chosen: str = folder or getattr(settings, "FILE_STORAGE_FOLDER", None) or DEFAULT_FOLDER
        self.folder = paths.canonical(chosen, allow_root=False)
        self._client = client

    @property
    def client(self) -> StorageClient:
        # Built on first use: settings are complete by then, and a storage object outlives
        # test settings overrides.
        return self._client or storage_client()

    def _path(self, name: str) -> str:
        parts = name.replace("\\", "/").split("/")
        clean = posixpath.normpath("/" + "/".join(parts)).lstrip("/")
        if not clean or ".." in parts:
            raise ValueError(f"a stored file name must stay inside the folder: {name!r}")
        return f"{self.folder}/{clean}"

    def _save(self, name: str, content: File[bytes]) -> str:
        content.seek(0)
        # The upload reads a binary file object: a Django File wraps one in `file`.
        data = cast(BinaryIO, content.file if hasattr(content, "file") else content)
        self.client.upload(self._path(name), data)
        return name

    def _open(self, name: str, mode: str = "rb") -> File[bytes]:
        if "w" in mode or "a" in mode:
            raise ValueError("bucket files are written with save(), not opened for writing")
        buffer = io.BytesIO()
        self.client.download(self._path(name), buffer)
        return ContentFile(buffer.getvalue(), name=name)

    def delete(self, name: str) -> None:
        try:
            self.client.delete(self._path(name))
        except NotFound:
            pass  # already gone: deleting is idempotent, as for FileSystemStorage

    def exists(self, name: str) -> bool:
        return self.client.exists(self._path(name))

    def size(self, name: str) -> int:
        return self.client.head(self._path(name)).size or 0

    def url(self, name: str | None) -> str:
        raise NotImplementedError("kept files are private: they have no public URL")

    def listdir(self, path: str) -> tuple[list[str], list[str]]:
        folder = self._path(path) if path.strip("/") else self.folder
        folders: list[str] = []
        files: list[str] = []
        for item in self.client.iter_list(folder):
            (folders if item.is_folder else files).append(item.name)
        return folders, files
