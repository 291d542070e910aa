"""Automatic purge: when the storage pages replace or delete a file, its edge URL and all its
version URLs are purged (content-delivery.md, "Cache refresh").

Storage announces those changes with the `file_replaced(path)` and `file_deleted(path,
asynchronous)` signals (with `service=`, the storage service, once storage sends it; without,
the default service), and the file's URLs on every domain of that service are purged. A folder
job's files come together (`files_replaced` / `files_deleted` with `paths`) and are purged in
as few requests as the 600-URLs limit allows. The
signals are re-exported by `storage.services` and connected from
`DeliveryConfig.ready()`. The receivers only record the purge and queue its task after the
commit, so a slow or failing provider never slows down or breaks the storage page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Service
from delivery.models import PurgeSource
from delivery.services import purge_file_urls, purge_files_urls
from storage import services as storage

logger = logging.getLogger(__name__)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff")


def _purge(path: str, source: str, service: Service | None) -> None:
    try:
        purge_file_urls(path, source, service=service)
    except ProviderNotConfigured as error:
        # Without an edge address there is no URL to refresh; storage must not fail for it.
        logger.warning("delivery: no purge for %s: %s", path, error)


def on_file_replaced(sender: Any, path: str, service: Service | None = None,
                     **kwargs: Any) -> None:
    _purge(path, PurgeSource.FILE_REPLACED, service)


def on_file_deleted(sender: Any, path: str, service: Service | None = None,
                    **kwargs: Any) -> None:
    _purge(path, PurgeSource.FILE_DELETED, service)


def _purge_many(paths: list[str], source: str, service: Service, folder: str) -> None:
    try:
        purge_files_urls(paths, source, service=service, folder=folder)
    except ProviderNotConfigured as error:
        logger.warning("delivery: no purge for the files of %s: %s", folder, error)


def on_files_replaced(sender: Any, path: str, paths: list[str], service: Service,
                      **kwargs: Any) -> None:
    _purge_many(paths, PurgeSource.FILE_REPLACED, service, path)


def on_files_deleted(sender: Any, path: str, paths: list[str], service: Service,
                     **kwargs: Any) -> None:
    _purge_many(paths, PurgeSource.FILE_DELETED, service, path)


def is_image(path: str, content_type: str | None) -> bool:
    if content_type:
        return content_type.startswith("image/")
    return path.lower().endswith(IMAGE_SUFFIXES)


RECEIVERS: dict[str, Callable[..., None]] = {
    "file_replaced": on_file_replaced, "file_deleted": on_file_deleted,
    "files_replaced": on_files_replaced, "files_deleted": on_files_deleted}


def connect_storage_signals() -> list[str]:
    """Connect the receivers to the storage signals and offer the builders in the storage file
    browser; returns the names of the signals connected."""
    # Plain attributes: a renamed signal fails at start-up instead of silently purging nothing.
    signals = {"file_replaced": storage.file_replaced, "file_deleted": storage.file_deleted,
               "files_replaced": storage.files_replaced, "files_deleted": storage.files_deleted}
    for name, receiver in RECEIVERS.items():
        signals[name].connect(receiver, dispatch_uid=f"delivery.purge.{name}")
    # Links from the storage file browser to the builders, with the file's path filled in.
    storage.register_file_action(_("Delivery links"), "delivery:links",
                                 lambda path, content_type: True)
    storage.register_file_action(_("Image URL"), "delivery:images", is_image)
    return list(signals)
