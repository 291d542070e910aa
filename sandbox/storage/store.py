"""The storage emulator's internal Python API, for the other sandbox services.

The media-processing emulator reads sources and writes results here, the CDN edge serves files
from here; neither touches the storage tables or the files directory layout directly.

    default_bucket() -> str                          the demo account's bucket
    resolve(bucket, path) -> StoredObject | None     a file or folder (the root is a folder)
    save_from_file(bucket, path, src_path, content_type=None, metadata=None) -> StoredObject
    list_folder(bucket, path, after=None, limit=100, descending=False) -> list[StoredObject]
    make_folder(bucket, path) -> StoredObject
    delete(bucket, path) -> None                     a file, or an empty folder
    usage(bucket) -> int                             bytes of all files

Contract of every function:
- `bucket` is a bucket name; `path` is a decoded path inside it such as `/videos/a.mp4`
  (repeated and trailing slashes do not matter; percent-decoding is the caller's business).
- Refusals raise `sandbox.storage.errors.StorageError`, carrying the storage protocol's `code`
  (its `msg` is the error table's) and our `detail`: 40400001 not found, 40001000 an invalid
  path (`.`/`..` segments), 40300001 control characters in a name, 40600001 a folder where a
  file should be (or the reverse), 40600002 folder exists, 40300005 folder not empty, 40100012
  unknown bucket.
- `StoredObject.local_path` is the file's bytes on the local disk. Open it promptly: an
  overwrite or a delete unlinks it, though a handle already open keeps reading the old bytes.
  Never write to it; use `save_from_file`. `StoredObject.secret` is the file's secret or None.
- Times are unix seconds on the sandbox clock.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Sum

from sandbox.console import directory
from sandbox.core import clock
from sandbox.core.account import current_account
from sandbox.storage import disk, errors, paths
from sandbox.storage import metadata as meta_rules
from sandbox.storage.disk import Received
from sandbox.storage.errors import StorageError
from sandbox.storage.models import Entry, PendingDelete

DEFAULT_MIME = "application/octet-stream"


@dataclass(frozen=True)
class StoredObject:
    """A file or folder as other services see it."""

    bucket: str
    path: str
    is_folder: bool
    size: int
    mime_type: str
    md5: str
    metadata: dict[str, str] = field(default_factory=dict)
    created_at: float = 0.0
    modified_at: float = 0.0
    expires_at: float | None = None
    resumable: bool = False
    blob: str = ""

    @property
    def local_path(self) -> Path | None:
        """The file's bytes on the local disk (None for a folder)."""
        return None if self.is_folder else disk.blob_path(self.blob)

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def secret(self) -> str | None:
        """The file's secret (`x-svc-meta-secret`), or None when the file has none."""
        return self.metadata.get(meta_rules.SECRET)


def resolve(bucket: str, path: str) -> StoredObject | None:
    """The file or folder at `path`, or None. The bucket root resolves to a folder."""
    normal = paths.normalize(path)
    if normal == paths.ROOT:
        if not bucket_exists(bucket):
            return None
        return StoredObject(bucket=bucket, path=paths.ROOT, is_folder=True, size=0,
                            mime_type="", md5="", created_at=_root_created_at(),
                            modified_at=_root_created_at())
    entry = find_entry(bucket, normal)
    return None if entry is None else to_object(entry)


def default_bucket() -> str:
    """The demo account's first bucket (the account's own; others are services added later)."""
    return current_account().storage_bucket


def save_from_file(bucket: str, path: str, src_path: Path | str, content_type: str | None = None,
                   metadata: dict[str, str] | None = None) -> StoredObject:
    """Store a copy of the local file `src_path` at `path` (new or overwritten, even a file
    written by resumable upload), creating the folders above it. `content_type` defaults from
    the extension; `metadata` holds `x-svc-meta-*` entries (an `x-svc-meta-ttl` starts its
    clock now). The source file is left untouched."""
    normal = paths.normalize(path)
    given = {name.lower(): value for name, value in (metadata or {}).items()}
    meta_rules.validate(given)
    received = disk.copy_in(Path(src_path))
    stored, _created = commit_file(bucket, normal, received,
                                   mime_type=content_type or guess_mime(normal),
                                   meta=given, resumable=False, over_resumable=True)
    return stored


def list_folder(bucket: str, path: str, *, after: str | None = None, limit: int = 100,
                descending: bool = False) -> list[StoredObject]:
    """Up to `limit` entries of the folder, by name, starting after the name `after`."""
    folder = paths.normalize(path)
    require_folder(bucket, folder)
    rows = Entry.objects.filter(bucket=bucket, parent=folder)
    if after is not None:
        rows = rows.filter(name__lt=after) if descending else rows.filter(name__gt=after)
    rows = rows.order_by("-name" if descending else "name")[:limit]
    # Plain values, not model instances: a 10,000-entry page is built several times faster.
    return [from_row(row) for row in rows.values(*ROW_FIELDS)]


def delete(bucket: str, path: str) -> None:
    """Delete a file, or an empty folder (40300005 when it holds anything)."""
    normal = paths.normalize(path)
    with transaction.atomic():
        entry = _deletable(bucket, normal)
        blob = entry.blob
        entry.delete()
    transaction.on_commit(lambda: disk.remove_blob(blob))


def make_folder(bucket: str, path: str) -> StoredObject:
    """Create a folder and any missing folders above it (40600002 when it exists already)."""
    normal = paths.normalize(path)
    check_bucket(bucket)
    if normal == paths.ROOT:
        raise StorageError(errors.FOLDER_EXISTS, "the bucket root always exists")
    parent, name = paths.split(normal)
    with transaction.atomic():
        ensure_folders(bucket, normal)
        existing = Entry.objects.filter(bucket=bucket, parent=parent, name=name).first()
        if existing is not None:
            if existing.is_folder:
                raise StorageError(errors.FOLDER_EXISTS, f"{normal} exists")
            raise StorageError(errors.DIR_NOT_ACCEPTABLE, f"a file exists at {normal}")
        now = clock.now()
        entry = Entry.objects.create(bucket=bucket, parent=parent, name=name, is_folder=True,
                                     created_at=now, modified_at=now)
    return to_object(entry)


def usage(bucket: str) -> int:
    """Bytes stored in the bucket (files only)."""
    total = Entry.objects.filter(bucket=bucket, is_folder=False).aggregate(total=Sum("size"))
    return int(total["total"] or 0)


# --- helpers shared with the HTTP views and the tick handler --------------------------------


def bucket_exists(bucket: str) -> bool:
    """Every storage service of the account is a bucket."""
    return directory.is_storage_service(bucket)


def check_bucket(bucket: str) -> None:
    if not bucket_exists(bucket):
        raise StorageError(errors.BUCKET_NOT_EXISTS, f"no storage service named {bucket!r}")


def guess_mime(path: str) -> str:
    return mimetypes.guess_type(path, strict=False)[0] or DEFAULT_MIME


def find_entry(bucket: str, path: str) -> Entry | None:
    if path == paths.ROOT:
        return None
    parent, name = paths.split(path)
    return Entry.objects.filter(bucket=bucket, parent=parent, name=name).first()


def require_folder(bucket: str, folder: str) -> None:
    check_bucket(bucket)
    if folder == paths.ROOT:
        return
    entry = find_entry(bucket, folder)
    if entry is None or not entry.is_folder:
        raise StorageError(errors.NOT_FOUND, f"no folder at {folder}")


ROW_FIELDS = ("bucket", "parent", "name", "is_folder", "size", "mime_type", "md5", "metadata",
              "created_at", "modified_at", "expires_at", "resumable", "blob")


def from_row(row: dict[str, Any]) -> StoredObject:
    parent = row.pop("parent")
    return StoredObject(path=paths.join(parent, row.pop("name")), **row)


def to_object(entry: Entry) -> StoredObject:
    return from_row({name: getattr(entry, name) for name in ROW_FIELDS})


def ensure_folders(bucket: str, path: str) -> None:
    """Create the missing folders above `path`; a file in the way is a conflict (40600001).
    Call inside a transaction."""
    now = clock.now()
    for folder in paths.ancestors(path):
        parent, name = paths.split(folder)
        existing = Entry.objects.filter(bucket=bucket, parent=parent, name=name).first()
        if existing is None:
            Entry.objects.create(bucket=bucket, parent=parent, name=name, is_folder=True,
                                 created_at=now, modified_at=now)
        elif not existing.is_folder:
            raise StorageError(errors.DIR_NOT_ACCEPTABLE,
                               f"{folder} is a file, so it cannot hold {path}")


def check_writable(bucket: str, path: str, *, over_resumable: bool) -> Entry | None:
    """The entry a new file at `path` would replace, after refusing what must not be replaced:
    a folder (40600001) or, unless allowed, a file written by resumable upload (40000000: the
    table has no row for it)."""
    if path == paths.ROOT:
        raise StorageError(errors.WRONG_URI, "a file needs a name after the bucket")
    entry = find_entry(bucket, path)
    if entry is not None and entry.is_folder:
        raise StorageError(errors.DIR_NOT_ACCEPTABLE, f"{path} is a folder")
    if entry is not None and entry.resumable and not over_resumable:
        raise StorageError(errors.BAD_REQUEST,
                           "the file was written by resumable upload and cannot be overwritten "
                           "by another upload method; delete it first")
    for folder in paths.ancestors(path):
        above = find_entry(bucket, folder)
        if above is not None and not above.is_folder:
            raise StorageError(errors.DIR_NOT_ACCEPTABLE,
                               f"{folder} is a file, so it cannot hold {path}")
    return entry


def commit_file(bucket: str, path: str, received: Received, *, mime_type: str,
                meta: dict[str, str], resumable: bool,
                over_resumable: bool) -> tuple[StoredObject, bool]:
    """Make the temporary file `received` the content of `path`; (object, created?).

    The rename into place happens inside the transaction, so a refused commit leaves neither a
    row nor a blob; the replaced blob is unlinked only after the commit."""
    check_bucket(bucket)
    parent, name = paths.split(path)
    blob = disk.new_blob_name()
    old_blob = ""
    try:
        with transaction.atomic():
            entry = check_writable(bucket, path, over_resumable=over_resumable)
            ensure_folders(bucket, path)
            disk.install(received.path, blob)
            now = clock.now()
            fields = {
                "size": received.size, "md5": received.md5, "mime_type": mime_type,
                "metadata": meta, "blob": blob, "resumable": resumable, "created_at": now,
                "modified_at": now, "expires_at": meta_rules.expiry(meta, now),
            }
            created = entry is None
            if entry is None:
                entry = Entry.objects.create(bucket=bucket, parent=parent, name=name, **fields)
            else:
                old_blob = entry.blob
                for key, value in fields.items():
                    setattr(entry, key, value)
                entry.save()
    except BaseException:
        received.discard()
        disk.remove_blob(blob)
        raise
    # Inside a caller's transaction, the replaced bytes must survive until that one commits.
    transaction.on_commit(lambda: disk.remove_blob(old_blob))
    return to_object(entry), created


def patch_metadata(bucket: str, path: str, incoming: dict[str, str], option: str,
                   update_last_modified: bool) -> StoredObject:
    """Change a file's metadata (merge | replace | delete); a new TTL counts from the upload."""
    normal = paths.normalize(path)
    with transaction.atomic():
        entry = find_entry(bucket, normal)
        if entry is None:
            raise StorageError(errors.NOT_FOUND, f"nothing at {normal}")
        if entry.is_folder:
            raise StorageError(errors.NOT_A_FILE, f"{normal} is a folder; metadata is for files")
        changed = meta_rules.patched(entry.metadata, incoming, option)
        meta_rules.validate(changed)
        entry.metadata = changed
        entry.expires_at = meta_rules.expiry(changed, entry.created_at)
        if update_last_modified:
            entry.modified_at = clock.now()
        entry.save(update_fields=["metadata", "expires_at", "modified_at"])
    return to_object(entry)


def schedule_delete(bucket: str, path: str, delay_s: float) -> None:
    """Accept an asynchronous delete: refused now for what a delete would refuse, done later."""
    normal = paths.normalize(path)
    with transaction.atomic():
        entry = _deletable(bucket, normal)
        now = clock.now()
        PendingDelete.objects.create(entry=entry, blob=entry.blob, requested_at=now,
                                     due_at=now + delay_s)


def _deletable(bucket: str, path: str) -> Entry:
    check_bucket(bucket)
    if path == paths.ROOT:
        raise StorageError(errors.NO_PERMISSION_TO_DELETE, "the bucket root cannot be deleted")
    entry = find_entry(bucket, path)
    if entry is None:
        raise StorageError(errors.NOT_FOUND, f"nothing at {path}")
    if entry.is_folder and Entry.objects.filter(bucket=bucket, parent=path).exists():
        raise StorageError(errors.DIRECTORY_NOT_EMPTY, f"{path} holds files or folders")
    return entry


def _root_created_at() -> float:
    return current_account().created_at.timestamp()


def copy_file(bucket: str, source: str, target: str, *, metadata: dict[str, str] | None,
              move: bool) -> StoredObject:
    """Copy (or move) the file at `source` to `target` in one bucket; `metadata` None keeps the
    source's, else it replaces it. Refusals: 40000041 the same path, 40000042 no file at
    `source` (nothing, or a folder), and whatever a new file at `target` would meet.

    Blobs are never written after they are installed (an overwrite installs a new one), so a
    copy is a second name for the source's bytes (a hard link) and a move only renames the row:
    no byte is copied either way. A move keeps the file's upload time (and so its TTL) and
    drops an asynchronous delete pending on the source; a copy is a new upload.
    """
    origin, normal = paths.normalize(source), paths.normalize(target)
    if origin == normal:
        raise StorageError(errors.COPY_SAME_KEY, f"{origin} is both the source and the target")
    check_bucket(bucket)
    meta = None if metadata is None else {name.lower(): value for name, value in metadata.items()}
    if meta is not None:
        meta_rules.validate(meta)
    parent, name = paths.split(normal)
    linked: Received | None = None
    blob = old_blob = ""
    try:
        with transaction.atomic():
            found = find_entry(bucket, origin)
            if found is None or found.is_folder:
                kind = "a folder" if found is not None else "nothing"
                raise StorageError(errors.COPY_SOURCE_WRONG,
                                   f"{origin} is {kind}; only a file can be copied or moved")
            replaced = check_writable(bucket, normal, over_resumable=False)
            ensure_folders(bucket, normal)
            if replaced is not None:
                old_blob = replaced.blob
                replaced.delete()
            now = clock.now()
            if move:
                PendingDelete.objects.filter(entry=found).delete()
                found.parent, found.name = parent, name
                if meta is not None:
                    found.metadata = meta
                    found.expires_at = meta_rules.expiry(meta, found.created_at)
                found.save()
                entry = found
            else:
                linked = Received(disk.second_name(disk.blob_path(found.blob)), found.size,
                                  found.md5)
                blob = disk.new_blob_name()
                kept = dict(found.metadata) if meta is None else meta
                entry = Entry.objects.create(
                    bucket=bucket, parent=parent, name=name, size=found.size, md5=found.md5,
                    mime_type=found.mime_type, metadata=kept, blob=blob, resumable=False,
                    created_at=now, modified_at=now, expires_at=meta_rules.expiry(kept, now),
                )
                disk.install(linked.path, blob)
    except BaseException as error:
        if linked is not None:
            linked.discard()
        disk.remove_blob(blob)
        if isinstance(error, FileNotFoundError):  # the source's bytes went meanwhile
            raise StorageError(errors.COPY_SOURCE_WRONG,
                               f"{origin} was removed while it was being copied") from None
        raise
    transaction.on_commit(lambda: disk.remove_blob(old_blob))
    return to_object(entry)
