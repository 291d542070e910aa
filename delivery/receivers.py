"""Automatic purge: when the storage pages replace or delete a file, its edge URL and all its
version URLs are purged (content-delivery.md, "Cache refresh").

Storage announces those changes with the `file_replaced(path)` and `file_deleted(path,
asynchronous)` signals, re-exported by `storage.services`; they are connected from
`DeliveryConfig.ready()`. The receivers only record the purge and queue its task after the
commit, so a slow or failing provider never slows down or breaks the storage page.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from typing import Any

from django.utils.translation import gettext_lazy as _

from backoffice.provider import ProviderNotConfigured
from delivery.models import PurgeSource
from delivery.purging import purge_file_urls

logger = logging.getLogger(__name__)
STORAGE_SERVICES = "storage.services"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".bmp", ".tif", ".tiff")


def _purge(path: str, source: str) -> None:
    try:
        purge_file_urls(path, source)
    except ProviderNotConfigured as error:
        # Without an edge address there is no URL to refresh; storage must not fail for it.
        logger.warning("delivery: no purge for %s: %s", path, error)


def on_file_replaced(sender: Any, path: str, **kwargs: Any) -> None:
    _purge(path, PurgeSource.FILE_REPLACED)


def on_file_deleted(sender: Any, path: str, **kwargs: Any) -> None:
    _purge(path, PurgeSource.FILE_DELETED)


def is_image(path: str, content_type: str | None) -> bool:
    if content_type:
        return content_type.startswith("image/")
    return path.lower().endswith(IMAGE_SUFFIXES)


RECEIVERS = {"file_replaced": on_file_replaced, "file_deleted": on_file_deleted}


def connect_storage_signals() -> list[str]:
    """Connect the receivers to the storage signals; returns the names connected."""
    if importlib.util.find_spec(STORAGE_SERVICES) is None:
        logger.warning("delivery: %s is missing; automatic purge is off", STORAGE_SERVICES)
        return []
    services = importlib.import_module(STORAGE_SERVICES)
    connected = []
    for name, receiver in RECEIVERS.items():
        signal = getattr(services, name, None)
        if signal is None:
            logger.warning("delivery: %s.%s is missing; no purge on that change",
                           STORAGE_SERVICES, name)
            continue
        signal.connect(receiver, dispatch_uid=f"delivery.purge.{name}")
        connected.append(name)
    register = getattr(services, "register_file_action", None)
    if register is not None:
        # Links from the storage file browser to the builders, with the file's path filled in.
        register(_("Delivery links"), "delivery:links", lambda path, content_type: True)
        register(_("Image URL"), "delivery:images", is_image)
    return connected
