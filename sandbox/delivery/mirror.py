"""Mirror storage of an own-origin service (cdn/advanced.md, "镜像存储"; DECISIONS.md): the
origin's files copied, as they are asked for, into a storage service of the account.

- on: a cache miss is looked up in the storage bucket first; a file found there is served;
  otherwise the origin answers, and a 200 answer is stored at the request's path (with its
  Content-Type) before it is served, so the next miss is served from storage;
- paused: storage first, then the origin, and no new copies;
- off: the origin only.
The provider puts the copy into a queue; the sandbox stores it at once, so a test (or a person)
sees it in the bucket as soon as the answer arrives.

What is looked up and stored is the path the edge serves (after rewriting), without the query:
the bucket holds one file per path. A path that cannot be a file (`/`, ending in `/`, invalid
for storage) is neither looked up nor stored. A stored file with a secret is left alone: it is
not served by its plain path (as on a storage domain) and not overwritten.

The cache time of mirrored answers (from storage or freshly copied) is the service's
`cache_seconds`, which must exceed 24 hours; the console refuses less, and the edge raises a
smaller value to the minimum rather than trust it.
"""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass
from typing import Any

from sandbox.delivery.upstream import OriginAnswer
from sandbox.storage import store
from sandbox.storage.errors import StorageError
from sandbox.storage.store import StoredObject

ON, PAUSED, OFF = "on", "paused", "off"
STATUSES = (ON, PAUSED, OFF)
MIN_CACHE_SECONDS = 86400 + 1  # "must exceed 24 hours"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Mirror:
    status: str = OFF
    storage_bucket: str = ""
    cache_seconds: int = MIN_CACHE_SECONDS

    @classmethod
    def from_fields(cls, status: str | None, storage_bucket: str | None,
                    cache_seconds: Any) -> Mirror:
        """The service's stored mirror fields, read defensively: an unknown status or a missing
        bucket is off."""
        if status not in STATUSES or status == OFF or not storage_bucket:
            return cls()
        try:
            seconds = int(cache_seconds)
        except (TypeError, ValueError):
            seconds = MIN_CACHE_SECONDS
        return cls(status, storage_bucket, max(seconds, MIN_CACHE_SECONDS))

    @property
    def reads_storage(self) -> bool:
        return self.status in (ON, PAUSED) and bool(self.storage_bucket)

    @property
    def copies(self) -> bool:
        return self.status == ON and bool(self.storage_bucket)


def _file_path(path: str) -> bool:
    return path.startswith("/") and not path.endswith("/")


def stored(mirror: Mirror, path: str) -> StoredObject | None:
    """The bucket's file at `path` when the mirror reads storage, else None."""
    if not mirror.reads_storage or not _file_path(path):
        return None
    try:
        found = store.resolve(mirror.storage_bucket, path)
    except StorageError:
        return None
    if found is None or found.is_folder or found.secret:
        return None
    return found


def keep(mirror: Mirror, path: str, answer: OriginAnswer) -> StoredObject | None:
    """Store a 200 answer of the origin at `path` when the mirror copies; None when it does
    not or cannot (the answer is served all the same)."""
    if not mirror.copies or answer.status != 200 or not _file_path(path):
        return None
    try:
        existing = store.resolve(mirror.storage_bucket, path)
        if existing is not None and (existing.is_folder or existing.secret):
            return None
        with tempfile.NamedTemporaryFile(prefix="mirror-") as copy:
            copy.write(answer.body)
            copy.flush()
            return store.save_from_file(mirror.storage_bucket, path, copy.name,
                                        content_type=answer.content_type)
    except StorageError as error:
        log.warning("mirror storage: %s not copied into %s: %s", path, mirror.storage_bucket,
                    error)
        return None
