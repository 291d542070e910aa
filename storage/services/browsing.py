"""What the file browser shows, read live from the provider: one page of a folder
(x-list-iter), whether a path is a file, and what is at the targets of an upload."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Service
from storage import paths
from storage.client import LIST_END, NotFound, StorageClient, StorageError
from storage.services.connection import storage_client

PAGE_SIZES = (50, 100, 200, 500, 1000)
DEFAULT_PAGE_SIZE = 100
# Previews are streamed whole through the back-office: keep them to reasonable images.
PREVIEW_MAX_BYTES = 20 * 1024 * 1024
# SVG can carry scripts; it is never shown inline from our origin.
PREVIEW_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp")
PREVIEW_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp")


def is_previewable(name: str, content_type: str | None, size: int | None) -> bool:
    """An image a browser can show safely, small enough to stream as a preview."""
    if size is not None and size > PREVIEW_MAX_BYTES:
        return False
    if content_type:
        return content_type.split(";")[0].strip().lower() in PREVIEW_TYPES
    return name.lower().endswith(PREVIEW_SUFFIXES)


@dataclass(frozen=True)
class Entry:
    """One row of the file browser."""

    name: str
    path: str
    is_folder: bool
    size: int
    modified: datetime | None
    content_type: str | None

    @property
    def previewable(self) -> bool:
        return not self.is_folder and is_previewable(self.name, self.content_type, self.size)


@dataclass(frozen=True)
class FolderPage:
    """A page of `path`: `cursor` is the one it was read from (None: the first page) and
    `next_cursor` the one of the following page (None: this is the last)."""

    path: str
    entries: list[Entry]
    cursor: str | None
    next_cursor: str | None
    order: str
    limit: int

    @property
    def is_first(self) -> bool:
        return not self.cursor


def read_page(
    service: Service,
    folder: str,
    *,
    cursor: str | None = None,
    order: str = "asc",
    limit: int = DEFAULT_PAGE_SIZE,
    client: StorageClient | None = None,
) -> FolderPage:
    """Read one page of `folder` (canonical path) from the provider.

    Raises ProviderNotConfigured, or StorageError when the provider refuses or fails (a
    StorageProtocolError when `folder` is a file: listing a file answers its content).
    """
    client = client or storage_client(service)
    page = client.list_page(folder, cursor=cursor or None, limit=limit, order=order)
    base = folder.rstrip("/")
    entries = [
        Entry(
            name=item.name,
            path=f"{base}/{item.name}",
            is_folder=item.is_folder,
            size=item.size,
            modified=datetime.fromtimestamp(item.last_modified, tz=UTC)
            if item.last_modified
            else None,
            content_type=item.content_type,
        )
        for item in page.items
    ]
    next_cursor = None if page.is_last or page.next_iter == cursor else page.next_iter
    return FolderPage(
        path=folder,
        entries=entries,
        cursor=cursor,
        next_cursor=next_cursor if next_cursor != LIST_END else None,
        order=order,
        limit=limit,
    )


# A search reads the folder in name order from the start (the provider has no name filter):
# at most this many listing requests per page of results, after which the page offers to
# search on from where it stopped.
SEARCH_REQUESTS_PER_PAGE = 20


@dataclass(frozen=True)
class SearchPage(FolderPage):
    """A page of the entries of `path` whose names start with `prefix`: `scanned` names were
    read for it; `next_cursor` (None: nothing more can match) continues the search."""

    prefix: str = ""
    scanned: int = 0


def search_page(
    service: Service,
    folder: str,
    prefix: str,
    *,
    cursor: str | None = None,
    limit: int = DEFAULT_PAGE_SIZE,
    client: StorageClient | None = None,
) -> SearchPage:
    """The entries of `folder` whose name starts with `prefix` (case-sensitive), from `cursor`.

    The provider lists a folder in name order and has no filter, so the listing is read in
    ascending order, `limit` names a request, keeping the matches, until `limit` matches are
    found, a name sorts after every name the prefix can start (nothing later can match), the
    folder ends, or SEARCH_REQUESTS_PER_PAGE requests were made. Whole listing pages are kept,
    so a page of results holds up to 2 * limit - 1 entries and `next_cursor` is exactly where
    the next search page resumes. Raises as `read_page` does.
    """
    client = client or storage_client(service)
    found: list[Entry] = []
    scanned = 0
    at = cursor
    for _request in range(SEARCH_REQUESTS_PER_PAGE):
        page = read_page(service, folder, cursor=at, order="asc", limit=limit, client=client)
        scanned += len(page.entries)
        found.extend(entry for entry in page.entries if entry.name.startswith(prefix))
        at = page.next_cursor
        if at is None or _past(prefix, [entry.name for entry in page.entries]):
            at = None
            break
        if len(found) >= limit:
            break
    return SearchPage(path=folder, entries=found, cursor=cursor, next_cursor=at, order="asc",
                      limit=limit, prefix=prefix, scanned=scanned)


def _past(prefix: str, names: list[str]) -> bool:
    """Whether the listing has gone past every name starting with `prefix`. Only trusted when
    the page is in code point order, as the sandbox lists; under another collation the
    search reads on to the end rather than stop early and miss a match."""
    in_code_point_order = names == sorted(names)
    return in_code_point_order and any(
        name > prefix and not name.startswith(prefix) for name in names
    )


def breadcrumbs(folder: str) -> list[tuple[str, str]]:
    return paths.breadcrumbs(folder)


def is_file(service: Service, path: str) -> bool:
    """Whether `path` is a file at the provider; False for a folder, for nothing there, and
    when the provider cannot be asked (the caller only uses it to pick a better page)."""
    try:
        return storage_client(service).head(path).type == "file"
    except (StorageError, ProviderNotConfigured):
        return False


@dataclass(frozen=True)
class Target:
    """What is at an upload's target path: `kind` is "file", "folder" or None (nothing there),
    unless `failure` says why we could not find out."""

    kind: str | None = None
    failure: Exception | None = None


def probe_targets(service: Service, target_paths: Sequence[str]) -> dict[str, Target]:
    """What is at each path now, asked with one HEAD per path on one client.

    Raises ProviderNotConfigured before any call. A refusal or failure for one path is kept in
    its Target, so that one bad path does not hide what is known of the others.
    """
    client = storage_client(service)
    found: dict[str, Target] = {}
    for path in target_paths:
        try:
            found[path] = Target(kind=client.head(path).type)
        except NotFound:
            found[path] = Target()
        except StorageError as failure:
            found[path] = Target(failure=failure)
    return found
