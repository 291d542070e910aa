"""The folder of the back-office's own kept files (`FILE_STORAGE_FOLDER`), hidden from staff.

Kept files (an SMS import's numbers) are the back-office's business, not the file browser's:
no group sees them there, superusers included. The refusal sits under every browser use case,
in the client they share (`storage_client()` builds a `BrowsingClient`): any request for a
path in the folder fails as `PrivatePath` (a `NotFound`, so every page already answers it as
a missing file) before anything is sent, and listings leave the folder out. Only
`BucketStorage` reaches the folder, through `kept_files_client()`.
"""

from __future__ import annotations

from typing import Any

import requests
from django.conf import settings

from storage import paths, rules
from storage.client import ListPage, NotFound, StorageClient

DEFAULT_FOLDER = "/backoffice-private"
NOT_FOUND_CODE = 40400001


class PrivatePath(NotFound):
    """A path in the kept files' folder, refused as if nothing were there."""


def private_folder() -> str:
    """The canonical kept files' folder (never the root: settings refuse it)."""
    chosen: str = getattr(settings, "FILE_STORAGE_FOLDER", None) or DEFAULT_FOLDER
    return paths.canonical(chosen, allow_root=False)


def is_private(path: str) -> bool:
    """Whether `path`, in any accepted spelling, is the kept files' folder or below it. A path
    the rules refuse is not private: it is refused for its own fault wherever it is used."""
    try:
        canonical = paths.canonical(path, allow_root=True)
    except rules.RuleViolation:
        return False
    return paths.is_within(canonical, private_folder())


def refuse_private(path: str) -> None:
    """Raise PrivatePath for a path in the kept files' folder."""
    if is_private(path):
        raise PrivatePath("no file or directory at that path", code=NOT_FOUND_CODE, status=404)


class BrowsingClient(StorageClient):
    """The storage client of every staff-facing use case: the kept files' folder is not there.

    Every call goes through `send`, so no entry point (page, task, command, another app) can
    reach a kept file, even one added later that forgets to ask.
    """

    def send(self, method: str, path: str, **options: Any) -> requests.Response:
        refuse_private(path)
        return super().send(method, path, **options)

    def list_page(self, path: str = "/", **options: Any) -> ListPage:
        page = super().list_page(path, **options)
        base = path.rstrip("/")
        items = [item for item in page.items if not is_private(f"{base}/{item.name}")]
        return ListPage(items=items, next_iter=page.next_iter)

