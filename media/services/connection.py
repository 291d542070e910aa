"""Builds the media-processing client of a service."""

from __future__ import annotations

from django.conf import settings

from backoffice.operations.provider import provider_observers, provider_settings
from console.models import Service
from console.services import storage_access
from media.client import DEFAULT_TIMEOUT, MediaClient


def media_client(service: Service) -> MediaClient:
    """A client working on the service's bucket (ProviderNotConfigured when the address or the
    service's operator is missing).

    The media service has its own address but works on a storage bucket with that bucket's
    operator. Processing takes longer than a plain API call, hence the client's longer default
    timeout unless the setting is larger.
    """
    media = provider_settings("media")
    access = storage_access(service)
    return MediaClient(
        media["process_url"],
        access.bucket,
        access.operator,
        access.password,
        timeout=max(float(settings.PROVIDER_TIMEOUT_S), DEFAULT_TIMEOUT),
        observers=provider_observers("media"),
    )
