"""The storage client as the back-office builds it from the environment."""

from __future__ import annotations

from typing import cast

from django.conf import settings

from backoffice.operations.provider import provider_observers, provider_settings
from storage.client import RetryPolicy, Scheme, StorageClient
from storage.services.private import BrowsingClient


def storage_client(
    *, timeout: float | None = None, retry: RetryPolicy | None = None
) -> StorageClient:
    """A client for the configured bucket (ProviderNotConfigured when the env is missing).

    Its observers record every call for the metrics and the dashboard's "provider answered
    at ...". The timeout bounds each socket wait, not a whole transfer, so large files are not
    cut short. The kept files' folder is out of its reach (`storage.services.private`).
    """
    return _build(BrowsingClient, timeout, retry)


def kept_files_client() -> StorageClient:
    """The one client that reaches the kept files' folder: `BucketStorage`'s."""
    return _build(StorageClient, None, None)


def _build(
    kind: type[StorageClient], timeout: float | None, retry: RetryPolicy | None
) -> StorageClient:
    values = provider_settings("storage")
    return kind(
        values["url"],
        values["bucket"],
        values["operator"],
        values["password"],
        # env.choice admitted only a known scheme; the client checks it again.
        scheme=cast(Scheme, values.get("signature") or "current"),
        timeout=float(timeout or settings.PROVIDER_TIMEOUT_S),
        observers=provider_observers("storage"),
        retry=retry,
    )


def bucket_name() -> str:
    """The configured bucket's name, for the file browser's root ('' when it is not set)."""
    return str(settings.PROVIDER["storage"].get("bucket") or "")
