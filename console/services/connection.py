"""Builds the console client with the shared token and the back-office's call observers."""

from __future__ import annotations

from django.conf import settings

from backoffice.operations.provider import provider_observers, provider_settings
from console.client import ConsoleClient
from console.services.token import SharedConsoleTokens
from providerkit.timeouts import with_read

SERVICE = "console"


def console_client() -> ConsoleClient:
    """A client for the configured account; ProviderNotConfigured names a missing setting.

    Cheap to build: the token lives in the database and the cache, not in the client.
    """
    values = provider_settings(SERVICE)
    holder: list[ConsoleClient] = []
    tokens = SharedConsoleTokens(fetch=lambda: holder[0].fetch_token())
    client = ConsoleClient(values["console_url"], values["username"], values["password"], tokens,
                           timeout=with_read(float(settings.PROVIDER_TIMEOUT_S)),
                           observers=provider_observers(SERVICE))
    holder.append(client)
    return client
