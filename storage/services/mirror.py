"""The StoredFile mirror: written by every change made here and by a walk of the bucket.

`sync_tree` walks a folder tree page by page with the listing iterator (x-list-iter) and
applies each page with a few bulk statements, so a folder of 25,000 files costs 25 listing calls
and a handful of queries per page. Rows whose listing fields changed lose their details (MD5,
metadata), which are then read again for a bounded number of files per run. Only a walk that
completed marks the rows it did not see as gone.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from backoffice.operations.provider import ProviderNotConfigured
from backoffice.operations.queue import enqueue
from console.models import Service
from storage import paths, rules
from storage.client import ListItem, NotFound, StorageClient, StorageError
from storage.models import StoredFile, SyncRun
from storage.services.connection import storage_client
from storage.services.details import FileDetails, fetch_details
from storage.texts import error_text

logger = logging.getLogger(__name__)

LIST_PAGE_SIZE = 1000
DETAILS_PER_RUN = 200
# SQLite refuses statements with too many parameters; PostgreSQL is happier with batches too.
BATCH = 500

LISTING_FIELDS = ("kind", "size", "modified_at", "content_type", "deleted_at", "last_seen")
DETAIL_FIELDS = ("md5", "details_at")


def within(service: Service, root: str) -> QuerySet[StoredFile]:
    """The service's rows at or below `root` (every row of the service for `/`)."""
    rows = StoredFile.objects.filter(service=service)
    if root == paths.ROOT:
        return rows
    return rows.filter(Q(path=root) | Q(path__startswith=root.rstrip("/") + "/"))


def _timestamp(seconds: int | None) -> datetime | None:
    return datetime.fromtimestamp(seconds, tz=UTC) if seconds else None


# --- single changes made through the back-office --------------------------------------------


def record_details(
    service: Service, details: FileDetails, *, seen_at: datetime | None = None
) -> StoredFile:
    """Store everything the provider said about one file or folder."""
    now = seen_at or timezone.now()
    info = details.info
    metadata = dict(details.metadata)
    if details.ttl_days is not None:
        metadata[rules.TTL_NAME] = str(details.ttl_days)
    values: dict[str, object] = {
        "parent": paths.parent_of(details.path),
        "name": paths.name_of(details.path),
        "kind": StoredFile.Kind.FOLDER if details.is_folder else StoredFile.Kind.FILE,
        "last_seen": now,
        "deleted_at": None,
    }
    if info.size is not None:
        values["size"] = info.size
    if info.date is not None:
        values["modified_at"] = info.date
    if not details.is_folder:
        values.update(
            md5=info.md5 or "",
            content_type=details.content_type or "",
            metadata=metadata,
            has_secret=details.has_secret,
            details_at=now,
        )
    row, _created = StoredFile.objects.update_or_create(
        service=service, path=details.path, defaults=values)
    return row


def record_folder(service: Service, path: str) -> None:
    """A folder exists (created here, or implied by an upload into it), with its parents."""
    now = timezone.now()
    for _name, folder in paths.breadcrumbs(path)[1:]:
        StoredFile.objects.update_or_create(
            service=service,
            path=folder,
            defaults={
                "parent": paths.parent_of(folder),
                "name": paths.name_of(folder),
                "kind": StoredFile.Kind.FOLDER,
                "last_seen": now,
                "deleted_at": None,
            },
        )


def record_gone(service: Service, path: str) -> None:
    """`path` (and, for a folder, everything below it) no longer exists."""
    within(service, path).filter(deleted_at__isnull=True).update(deleted_at=timezone.now())


@dataclass(frozen=True)
class Transferred:
    """A file copied or moved by the back-office, as the walk listed its source."""

    source: str
    target: str
    size: int
    content_type: str


def record_transferred(service: Service, files: Sequence[Transferred], *,
                       sources_gone: bool) -> None:
    """Files copied inside the bucket: each target row takes what the mirror knew of its
    source (the provider copies the bytes and the metadata, so MD5, metadata and secret carry
    over) and is new (modified now, as the provider dates a copy); folders on the way are
    recorded too. With `sources_gone` (the second half of a folder move, after the copies
    were recorded) only the source rows change: they are marked gone."""
    now = timezone.now()
    if sources_gone:
        sources = [item.source for item in files]
        for start in range(0, len(sources), BATCH):
            StoredFile.objects.filter(service=service, path__in=sources[start:start + BATCH],
                                      deleted_at__isnull=True).update(deleted_at=now)
        return
    known = {row.path: row for start in range(0, len(files), BATCH)
             for row in StoredFile.objects.filter(
                 service=service, path__in=[f.source for f in files[start:start + BATCH]])}
    rows: list[StoredFile] = []
    for item in files:
        origin = known.get(item.source)
        rows.append(StoredFile(
            service=service, path=item.target, parent=paths.parent_of(item.target),
            name=paths.name_of(item.target), kind=StoredFile.Kind.FILE, size=item.size,
            modified_at=now,
            content_type=item.content_type or (origin.content_type if origin else ""),
            md5=origin.md5 if origin else "", metadata=origin.metadata if origin else {},
            has_secret=origin.has_secret if origin else None,
            details_at=origin.details_at if origin else None, last_seen=now, deleted_at=None))
    StoredFile.objects.bulk_create(
        rows, batch_size=BATCH, update_conflicts=True, unique_fields=["service", "path"],
        update_fields=["parent", "name", "kind", "size", "modified_at", "content_type", "md5",
                       "metadata", "has_secret", "details_at", "last_seen", "deleted_at"])
    for folder in sorted({paths.parent_of(item.target) for item in files}):
        if folder != paths.ROOT:
            record_folder(service, folder)


# --- walking a tree --------------------------------------------------------------------------


def sync_tree(
    service: Service,
    root: str = paths.ROOT,
    *,
    details_limit: int = DETAILS_PER_RUN,
    client: StorageClient | None = None,
) -> SyncRun:
    """Mirror the tree under `root` into StoredFile; returns the finished SyncRun.

    Never raises for provider trouble: a failed run is recorded with its error and leaves the
    mirror as it was (rows seen so far are updated, nothing is marked gone).
    """
    root = paths.canonical(root)
    started = timezone.now()
    run = SyncRun.objects.create(service=service, root=root, started_at=started)
    try:
        client = client or storage_client(service)
        _walk(service, client, root, run, started)
        run.gone = _mark_gone(service, root, started)
        run.state = SyncRun.State.COMPLETED
        run.details_read = _refresh_details(service, client, root, details_limit, run)
        run.files = StoredFile.objects.filter(
            service=service, kind=StoredFile.Kind.FILE, deleted_at__isnull=True).count()
    except (StorageError, ProviderNotConfigured, rules.RuleViolation) as error:
        logger.warning("mirror of %s failed: %s", root, error)
        run.state = SyncRun.State.FAILED
        run.error = error_text(error, root)
    run.finished_at = timezone.now()
    run.save()
    return run


def _walk(
    service: Service, client: StorageClient, root: str, run: SyncRun, started: datetime
) -> None:
    if root != paths.ROOT:
        try:
            info = client.head(root)
        except NotFound:
            return  # nothing there: everything below is gone (marked by the caller)
        if info.type != "folder":
            record_details(service, fetch_details(client, root), seen_at=started)
            run.seen += 1
            return
        _touch(service, root, started)
    folders: deque[str] = deque([root])
    while folders:
        folder = folders.popleft()
        run.folders += 1
        try:
            for page_items in _pages(client, folder):
                folders.extend(_apply_page(service, folder, page_items, started, run))
        except NotFound:
            # Removed while we walked: its rows stay unseen and are marked gone at the end.
            logger.info("folder %s vanished during the mirror walk", folder)
        run.save(update_fields=["folders", "seen", "added", "changed"])


def _pages(client: StorageClient, folder: str) -> Iterable[list[ListItem]]:
    cursor: str | None = None
    while True:
        page = client.list_page(folder, cursor=cursor, limit=LIST_PAGE_SIZE)
        yield page.items
        if page.is_last or page.next_iter == cursor:
            return
        cursor = page.next_iter


def _touch(service: Service, path: str, seen_at: datetime) -> None:
    StoredFile.objects.update_or_create(
        service=service,
        path=path,
        defaults={
            "parent": paths.parent_of(path),
            "name": paths.name_of(path),
            "kind": StoredFile.Kind.FOLDER,
            "last_seen": seen_at,
            "deleted_at": None,
        },
    )


def _apply_page(
    service: Service,
    folder: str, items: Sequence[ListItem], seen_at: datetime, run: SyncRun
) -> list[str]:
    """Upsert one listing page; returns the paths of the sub-folders it holds."""
    base = folder.rstrip("/")
    listed = {f"{base}/{item.name}": item for item in items}
    existing = {row.path: row for row in
                StoredFile.objects.filter(service=service, path__in=list(listed))}
    new_rows: list[StoredFile] = []
    changed_rows: list[StoredFile] = []
    unchanged: list[int] = []
    subfolders: list[str] = []
    for path, item in listed.items():
        kind = StoredFile.Kind.FOLDER if item.is_folder else StoredFile.Kind.FILE
        if item.is_folder:
            subfolders.append(path)
        modified = _timestamp(item.last_modified)
        row = existing.get(path)
        if row is None:
            new_rows.append(
                StoredFile(
                    service=service,
                    path=path,
                    parent=folder,
                    name=item.name,
                    kind=kind,
                    size=item.size,
                    modified_at=modified,
                    content_type=item.content_type or "",
                    last_seen=seen_at,
                )
            )
        elif _differs(row, kind, item, modified):
            if row.size != item.size or row.modified_at != modified or row.kind != kind:
                row.md5, row.details_at = "", None  # content changed: read details again
            row.kind, row.size, row.modified_at = kind, item.size, modified
            row.content_type = item.content_type or row.content_type
            row.deleted_at, row.last_seen = None, seen_at
            changed_rows.append(row)
        else:
            unchanged.append(row.pk)
    StoredFile.objects.bulk_create(new_rows, batch_size=BATCH, ignore_conflicts=True)
    StoredFile.objects.bulk_update(
        changed_rows, [*LISTING_FIELDS, *DETAIL_FIELDS], batch_size=BATCH
    )
    for start in range(0, len(unchanged), BATCH):
        StoredFile.objects.filter(pk__in=unchanged[start : start + BATCH]).update(
            last_seen=seen_at
        )
    run.seen += len(listed)
    run.added += len(new_rows)
    run.changed += len(changed_rows)
    return subfolders


def _differs(row: StoredFile, kind: str, item: ListItem, modified: datetime | None) -> bool:
    return (
        row.kind != kind
        or row.size != item.size
        or row.modified_at != modified
        or row.deleted_at is not None
        or bool(item.content_type and item.content_type != row.content_type)
    )


def _mark_gone(service: Service, root: str, started: datetime) -> int:
    unseen = within(service, root).filter(deleted_at__isnull=True, last_seen__lt=started)
    return unseen.update(deleted_at=timezone.now())


def _refresh_details(
    service: Service, client: StorageClient, root: str, limit: int, run: SyncRun
) -> int:
    """Read MD5 and metadata of up to `limit` files whose details are missing or stale."""
    if limit <= 0:
        return 0
    stale = (
        within(service, root)
        .filter(kind=StoredFile.Kind.FILE, deleted_at__isnull=True, details_at__isnull=True)
        .order_by("-modified_at")
        .values_list("path", flat=True)[:limit]
    )
    done = 0
    for path in list(stale):
        try:
            record_details(service, fetch_details(client, path))
        except NotFound:
            record_gone(service, path)
        except StorageError as error:
            # The walk itself completed; missing details are read on the next run.
            run.error = error_text(error, path)
            break
        done += 1
    return done


def refresh_mirror(service: Service, folder: str) -> None:
    """Queue a walk of `folder`'s tree into the mirror, once the current transaction commits
    (the walk may take minutes: the worker does it)."""
    enqueue("storage.tasks.mirror_bucket", folder, service.pk)
