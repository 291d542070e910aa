"""Builds the configured media-processing client."""

from __future__ import annotations

from django.conf import settings

from backoffice.operations.provider import provider_observers, provider_settings
from media.client import DEFAULT_TIMEOUT, MediaClient


def media_client() -> MediaClient:
    """A client for the configured provider (ProviderNotConfigured when the env is missing).

    The media service has its own address but works on the storage bucket with the storage
    operator's credentials, so both settings groups are needed. Processing takes longer than
    a plain API call, hence the client's longer default timeout unless the setting is larger.
    """
    media = provider_settings("media")
    storage = provider_settings("storage")
    return MediaClient(
        media["process_url"],
        storage["bucket"],
        storage["operator"],
        storage["password"],
        timeout=max(float(settings.PROVIDER_TIMEOUT_S), DEFAULT_TIMEOUT),
        observers=provider_observers("media"),
    )
