"""Builds the provider client with the shared token and the contact-recording session."""

from __future__ import annotations

from backoffice.operations.provider import provider_observers, provider_settings
from topup.client import TopupClient
from topup.conf import provider_timeout
from topup.services.shared_token import SharedTokenProvider

SERVICE = "topup"


def build_client() -> TopupClient:
    """A client for the configured account; raises ProviderNotConfigured naming what is missing.

    Cheap to build: the token lives in the database and cache, not in the client.
    """
    values = provider_settings(SERVICE)
    holder: list[TopupClient] = []
    tokens = SharedTokenProvider(fetch=lambda: holder[0].refresh_token())
    client = TopupClient(
        base_url=values["traffic_url"],
        appkey=values["appkey"],
        appsecret=values["appsecret"],
        token_provider=tokens,
        timeout=provider_timeout(),
        observers=provider_observers(SERVICE),
    )
    holder.append(client)
    return client
