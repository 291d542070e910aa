"""The storage client of a service, as the back-office builds it from the service's record."""

from __future__ import annotations

from typing import cast

from django.conf import settings

from backoffice.operations.metrics import ENTRY_FALLBACKS
from backoffice.operations.provider import provider_observers
from console.models import Service
from console.services import (
    default_service,
    environment_service,
    storage_access,
    storage_services,
)
from storage.client import RetryPolicy, Scheme, StorageClient
from storage.services.private import BrowsingClient


def storage_client(
    service: Service, *, timeout: float | None = None, retry: RetryPolicy | None = None
) -> StorageClient:
    """A client for the service's bucket (ProviderNotConfigured when it cannot be reached).

    Its observers record every call for the metrics and the dashboard's "provider answered
    at ...". The timeout bounds each socket wait, not a whole transfer, so large files are not
    cut short. The kept files' folder is out of its reach (`storage.services.private`).
    """
    return _build(BrowsingClient, service, timeout, retry)


def kept_files_client() -> StorageClient:
    """The one client that reaches the kept files' folder: `BucketStorage`'s, in the default
    service's bucket."""
    return _build(StorageClient, default_service(), None, None)


def _build(
    kind: type[StorageClient], service: Service, timeout: float | None,
    retry: RetryPolicy | None,
) -> StorageClient:
    access = storage_access(service)

    def count_fallback(line: str, fallback: str) -> None:
        ENTRY_FALLBACKS.labels(service=service.name).inc()

    return kind(
        access.url,
        access.bucket,
        access.operator,
        access.password,
        # The settings admit only a known scheme; the client checks it again.
        scheme=cast(Scheme, access.signature),
        timeout=float(timeout or settings.PROVIDER_TIMEOUT_S),
        observers=provider_observers("storage"),
        retry=retry,
        fallback_url=access.fallback_url,
        on_fallback=count_fallback,
    )


def mirrored_services(service_id: int | None) -> list[Service]:
    """The service `service_id`, or every storage service the back-office can reach (the
    environment's, and those with an operator): the periodic jobs' round."""
    services = storage_services()
    if service_id is not None:
        return list(services.filter(pk=service_id))
    environment_service()  # the environment's service exists before the round is read
    return [service for service in services.order_by("name")
            if service.from_environment or (service.operator and service.operator_password)]
