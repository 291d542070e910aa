"""The delivery clients and secrets as the back-office builds them from the environment."""

from __future__ import annotations

import hashlib

from django.conf import settings

from backoffice.operations.provider import (
    ProviderNotConfigured,
    provider_observers,
    provider_settings,
)
from delivery.client import EdgeConfigClient, EdgeFetcher, PurgeClient


def _delivery_value(key: str, variable: str) -> str:
    """One delivery setting. Each use needs only some of them (building a link needs the
    edge's address, not the purge API), so they are required one by one."""
    value: str | None = settings.PROVIDER["delivery"].get(key)
    if not value:
        raise ProviderNotConfigured(
            f"delivery: set {variable} in the environment (see the README)")
    return value


def delivery_base_url() -> str:
    """The edge's address (`DELIVERY_URL`); ProviderNotConfigured when it is missing."""
    return _delivery_value("delivery_url", "DELIVERY_URL").rstrip("/")


def token_secret() -> str:
    """The `_upt` secret, from `DELIVERY_TOKEN_SECRET` only: never stored in the database."""
    return _delivery_value("token_secret", "DELIVERY_TOKEN_SECRET")


def secret_fingerprint(secret: str) -> str:
    """A short one-way mark of the secret, kept with each publication to notice a change of
    `DELIVERY_TOKEN_SECRET` without keeping the secret itself."""
    return hashlib.sha256(b"delivery-token-secret\0" + secret.encode("utf-8")).hexdigest()[:16]


def current_secret_fingerprint() -> str | None:
    """The fingerprint of the environment's secret, None when it is not configured."""
    try:
        return secret_fingerprint(token_secret())
    except ProviderNotConfigured:
        return None


def purge_client() -> PurgeClient:
    """Purge is signed with the storage operator (DECISIONS, purge), so it needs both the
    delivery and the storage settings."""
    storage = provider_settings("storage")
    return PurgeClient(
        _delivery_value("purge_url", "PURGE_URL"),
        storage["bucket"],
        storage["operator"],
        storage["password"],
        observers=provider_observers("delivery"),
        timeout=float(settings.PROVIDER_TIMEOUT_S),
    )


def sandbox_control_url() -> str:
    url: str | None = settings.PROVIDER.get("sandbox_control_url")
    if not url:
        raise ProviderNotConfigured(
            "delivery: set SANDBOX_CONTROL_URL in the environment to publish to the sandbox edge"
        )
    return url


def edge_config_client() -> EdgeConfigClient:
    return EdgeConfigClient(
        sandbox_control_url(),
        observers=provider_observers("delivery"),
        timeout=float(settings.PROVIDER_TIMEOUT_S),
    )


def edge_fetcher() -> EdgeFetcher:
    return EdgeFetcher(
        observers=provider_observers("delivery"), timeout=float(settings.PROVIDER_TIMEOUT_S)
    )
