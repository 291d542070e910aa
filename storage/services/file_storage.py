"""A Django file storage in the merchant's own bucket, so kept files are shared by every host.

Files the back-office keeps between requests (an SMS import's source file, for one) go through
Django's default storage. On one machine that may stay the local MEDIA_ROOT; across machines
`FILE_STORAGE=bucket` puts them in a private folder of the configured bucket
(`FILE_STORAGE_FOLDER`), reached with the project's own storage client, so a file written
through one web node is read or deleted through any other.

That bucket is also the CDN's origin, so every kept file is private by form: a random name
(`secrets.token_urlsafe`, keeping only a short alphanumeric extension), so neither the name
nor the folder's contents say whose numbers it holds, and a content secret of its own, so its
plain edge URL answers 404. The secret is random per file and kept nowhere of ours: the
back-office reads its files through the authenticated REST API, which the secret does not
block, and never needs the edge URL (docs/decisions.md, "Private kept files"). The file
browser does not show the folder at all (`storage.services.private`).
"""

from __future__ import annotations

import io
import posixpath
import re
import secrets
import string
import tempfile
from typing import BinaryIO, cast

from django.conf import settings
from django.core.files.base import ContentFile, File
from django.core.files.storage import Storage
from django.utils.deconstruct import deconstructible

from storage import paths, rules
from storage.client import NotFound, StorageClient
from storage.services.connection import kept_files_client
from storage.services.private import DEFAULT_FOLDER

SECRET_ALPHABET = string.ascii_letters + string.digits  # the provider's Content-Secret rule
SECRET_LENGTH = 40  # about 238 bits
NAME_BYTES = 24  # 32 URL-safe characters, 192 bits
SAFE_EXTENSION = re.compile(r"\.[a-z0-9]{1,8}")
SPOOL_BYTES = 8 * 1024 * 1024


def new_secret() -> str:
    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))


def random_name(name: str) -> str:
    """`name`'s folder with a random file name, keeping the extension only when it is short
    letters and digits (an uploaded name may hold anything, phone numbers included)."""
    folder, _slash, base = name.replace("\\", "/").rpartition("/")
    extension = posixpath.splitext(base)[1].lower()
    kept = extension if SAFE_EXTENSION.fullmatch(extension) else ""
    chosen = secrets.token_urlsafe(NAME_BYTES) + kept
    return f"{folder}/{chosen}" if folder else chosen


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
        return self._client or kept_files_client()

    def _path(self, name: str) -> str:
        parts = name.replace("\\", "/").split("/")
        clean = posixpath.normpath("/" + "/".join(parts)).lstrip("/")
        if not clean or ".." in parts:
            raise ValueError(f"a stored file name must stay inside the folder: {name!r}")
        return f"{self.folder}/{clean}"

    def get_available_name(self, name: str, max_length: int | None = None) -> str:
        """A random name in `name`'s folder, whatever name was asked (see the module's
        docstring); 192 random bits do not collide, so no HEAD is spent on asking."""
        return random_name(name)

    def _save(self, name: str, content: File[bytes]) -> str:
        content.seek(0)
        # The upload reads a binary file object: a Django File wraps one in `file`.
        data = cast(BinaryIO, content.file if hasattr(content, "file") else content)
        self.client.upload(self._path(name), data, secret=new_secret())
        return name

    def make_private(self, name: str) -> str:
        """Copy a file kept before kept files were private to the private form; its new name.

        The old object first gets a secret of its own, so its plain URL is refused from that
        moment, whatever happens next; then its content is written again under a random name
        with a new secret. The old object is left for the caller to delete once its reference
        points at the new name (NotFound: there is no such file).
        """
        path = self._path(name)
        client = self.client
        client.patch_metadata(path, {rules.SECRET_NAME: new_secret()}, option="merge")
        new_name = self.get_available_name(name)
        with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as copy:
            client.download(path, cast(BinaryIO, copy))
            copy.seek(0)
            client.upload(self._path(new_name), cast(BinaryIO, copy), secret=new_secret())
        return new_name

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
