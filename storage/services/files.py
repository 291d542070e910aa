"""File and folder use cases other than uploads: folders, delete, details, metadata, secret,
download, usage. Each call keeps the StoredFile mirror in step and sends the signals of
`storage.services.extensions` once the provider has confirmed the change."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from django.utils import timezone

from backoffice.operations import soft_cache
from backoffice.security.audit import audited
from console.models import Service
from storage import paths, rules
from storage.client import OpenDownload, StorageClient, StorageError
from storage.models import UsageSnapshot
from storage.services import extensions, mirror
from storage.services.connection import storage_client
from storage.services.details import FileDetails, fetch_details

MetadataOption = Literal["merge", "replace", "delete"]
METADATA_OPTIONS: tuple[MetadataOption, ...] = ("merge", "replace", "delete")
USAGE_CACHE_KEY = "storage:usage:{}"
USAGE_CACHE_S = 300


def _client(service: Service, client: StorageClient | None) -> StorageClient:
    return client or storage_client(service)


def target(service: Service, path: str) -> str:
    """How the audit log names a file: `/<bucket><path>`, the provider's own notation."""
    return f"/{service.name}{path}"


# --- folders ---------------------------------------------------------------------------------


def create_folder(
    service: Service, parent: str, name: str, *, client: StorageClient | None = None
) -> str:
    """Create folder `name` in `parent`; returns its path. FolderExists if it is there."""
    path = paths.join(paths.canonical(parent), name.strip())
    _client(service, client).create_folder(path)
    mirror.record_folder(service, path)
    return path


@audited("storage", "folder.remove", lambda service, path, **_: (
    target(service, path), "folder removed"))
def remove_folder(service: Service, path: str, *, client: StorageClient | None = None) -> None:
    """Remove an empty folder; DirectoryNotEmpty (with nothing changed) otherwise."""
    path = paths.canonical(path, allow_root=False)
    _client(service, client).remove_folder(path)
    mirror.record_gone(service, path)


# --- files -----------------------------------------------------------------------------------


@audited("storage", "file.delete", lambda service, path, **_: (
    target(service, path), "file deleted"))
def delete_file(
    service: Service, path: str, *, asynchronous: bool = False,
    client: StorageClient | None = None,
) -> None:
    """Delete a file, now or (asynchronous) shortly after the provider's answer."""
    path = paths.canonical(path, allow_root=False)
    _client(service, client).delete(path, asynchronous=asynchronous)
    mirror.record_gone(service, path)
    extensions.send(extensions.file_deleted, service, path, asynchronous=asynchronous)


@dataclass(frozen=True)
class DeleteOutcome:
    """What a delete of several entries did: the paths deleted, and each path refused with
    the provider's reason."""

    deleted: list[str]
    failed: list[tuple[str, Exception]]


def delete_entries(
    service: Service,
    targets: Sequence[tuple[Literal["file", "folder"], str]],
    *,
    client: StorageClient | None = None,
) -> DeleteOutcome:
    """Delete files and (empty) folders one by one over one client. A refusal for one entry
    (a folder not empty, a file gone meanwhile) is kept with its path and the others go on;
    each delete is audited and signalled as a single delete is. ProviderNotConfigured is
    raised before any call."""
    client = _client(service, client)
    deleted: list[str] = []
    failed: list[tuple[str, Exception]] = []
    for kind, path in targets:
        try:
            if kind == "folder":
                remove_folder(service, path, client=client)
            else:
                delete_file(service, path, client=client)
        except (StorageError, rules.RuleViolation) as failure:
            failed.append((path, failure))
        else:
            deleted.append(path)
    return DeleteOutcome(deleted, failed)


def file_details(
    service: Service, path: str, *, client: StorageClient | None = None
) -> FileDetails:
    """Everything the provider says about `path`; the mirror is refreshed on the way."""
    path = paths.canonical(path, allow_root=False)
    details = fetch_details(_client(service, client), path)
    mirror.record_details(service, details)
    return details


@audited("storage", "file.metadata", lambda service, path, option, entries, **_: (
    target(service, path), f"metadata {option}: {', '.join(sorted(entries))}"))
def change_metadata(
    service: Service,
    path: str,
    option: MetadataOption,
    entries: Mapping[str, str],
    *,
    ttl_days: int | None = None,
    remove_ttl: bool = False,
    update_last_modified: bool = False,
    client: StorageClient | None = None,
) -> FileDetails:
    """Merge, replace or delete metadata entries; returns the file's details afterwards.

    The secret is not metadata the editor may touch (see `set_secret`): a replace keeps the
    current secret, because the provider would otherwise drop it with the other entries.
    For `delete`, `entries` holds the names to remove (values ignored) and `remove_ttl` also
    removes the lifetime.
    """
    path = paths.canonical(path, allow_root=False)
    if option not in METADATA_OPTIONS:
        raise ValueError(f"option must be one of {METADATA_OPTIONS}, got {option!r}")
    storage = _client(service, client)
    if option == "delete":
        names = list(entries)
        if remove_ttl:
            names.append(rules.TTL_NAME)
        storage.delete_metadata(path, names, update_last_modified=update_last_modified)
    else:
        metadata: dict[str, object] = dict(entries)
        if ttl_days is not None:
            metadata[rules.TTL_NAME] = ttl_days
        if option == "replace":
            current = fetch_details(storage, path)
            if current.secret:
                metadata[rules.SECRET_NAME] = current.secret
        storage.patch_metadata(
            path, metadata, option=option, update_last_modified=update_last_modified
        )
    extensions.send(extensions.file_metadata_changed, service, path, option=option)
    return file_details(service, path, client=storage)


# The secret itself is never written to the log.
@audited("storage", "file.secret", lambda service, path, secret, **_: (
    target(service, path), "secret set"))
def set_secret(
    service: Service, path: str, secret: str, *, client: StorageClient | None = None
) -> FileDetails:
    """Set or change the file secret (letters and digits, checked before anything is sent)."""
    path = paths.canonical(path, allow_root=False)
    rules.require(rules.check_secret(secret, "Content-Secret"))
    storage = _client(service, client)
    storage.patch_metadata(path, {rules.SECRET_NAME: secret}, option="merge")
    extensions.send(extensions.file_metadata_changed, service, path, option="merge")
    return file_details(service, path, client=storage)


@audited("storage", "file.secret", lambda service, path, **_: (
    target(service, path), "secret removed"))
def remove_secret(
    service: Service, path: str, *, client: StorageClient | None = None
) -> FileDetails:
    path = paths.canonical(path, allow_root=False)
    storage = _client(service, client)
    storage.delete_metadata(path, [rules.SECRET_NAME])
    extensions.send(extensions.file_metadata_changed, service, path, option="delete")
    return file_details(service, path, client=storage)


# --- streaming a file out --------------------------------------------------------------------


@dataclass
class Download:
    """A file being streamed out: iterate `chunks()` to pass its body on; it closes itself at
    the end (or when the consumer stops early, e.g. a browser that cancels)."""

    path: str
    body: OpenDownload

    @property
    def filename(self) -> str:
        return paths.name_of(self.path)

    @property
    def size(self) -> int | None:
        return self.body.size

    @property
    def content_type(self) -> str | None:
        return self.body.content_type

    def chunks(self) -> Iterator[bytes]:
        return self.body.chunks()

    def close(self) -> None:
        self.body.close()


def open_download(
    service: Service, path: str, *, client: StorageClient | None = None
) -> Download:
    """Start a streamed GET of a file; provider errors (NotFound...) are raised here, before
    anything is sent on to the browser."""
    path = paths.canonical(path, allow_root=False)
    return Download(path=path, body=_client(service, client).open_download(path))


# --- bucket ----------------------------------------------------------------------------------


def bucket_usage(
    service: Service, *, refresh: bool = False, client: StorageClient | None = None
) -> int:
    """Bytes used by the bucket, cached for five minutes (the dashboard asks on every visit).

    Every fresh reading is also kept as the day's usage (UsageSnapshot), for the dashboard's
    14-day chart.
    """
    if not refresh:
        cached = soft_cache.read(USAGE_CACHE_KEY.format(service.pk))
        if cached is not None:
            return int(cached)
    used = _client(service, client).usage()
    soft_cache.write(USAGE_CACHE_KEY.format(service.pk), used, USAGE_CACHE_S)
    now = timezone.now()
    UsageSnapshot.objects.update_or_create(
        service=service, day=timezone.localdate(now),
        defaults={"used_bytes": used, "taken_at": now})
    return used


def usage_per_day(service: Service, first: date) -> dict[date, int]:
    """Bytes used by the service at the last reading of each day since `first` (a day
    without one is absent)."""
    return dict(UsageSnapshot.objects.filter(service=service, day__gte=first)
                .values_list("day", "used_bytes"))
