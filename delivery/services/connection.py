"""The delivery clients, addresses and secrets of a domain, as the back-office builds them.

A domain's link address and `_upt` secret come from console's `domain_access`: the
environment's domain still reads `DELIVERY_URL` / `DELIVERY_TOKEN_SECRET` there, every other
domain its own record. The purge API (`PURGE_URL`) is the account's, signed by an operator of a
storage service.
"""

from __future__ import annotations

import hashlib

from django.conf import settings

from backoffice.operations.provider import ProviderNotConfigured, provider_observers
from console.models import Domain, Service
from console.services import default_service, domain_access, storage_access
from delivery.client import EdgeFetcher, PurgeClient


def delivery_base_url(domain: Domain) -> str:
    """Where the domain's links point; ProviderNotConfigured when it is not known."""
    return domain_access(domain).base_url


def token_secret(domain: Domain) -> str:
    """The domain's `_upt` secret; ProviderNotConfigured when it has none."""
    secret = domain_access(domain).token_secret
    if not secret:
        variable = "DELIVERY_TOKEN_SECRET in the environment" if domain.from_environment \
            else f"a token secret on the domain {domain.name}"
        raise ProviderNotConfigured(f"delivery: set {variable} (see the README)")
    return secret


def secret_fingerprint(secret: str) -> str:
    """A short one-way mark of the secret, kept with each publication to notice a change of
    the domain's secret without keeping the secret itself."""
    return hashlib.sha256(b"delivery-token-secret\0" + secret.encode("utf-8")).hexdigest()[:16]


def current_secret_fingerprint(domain: Domain) -> str | None:
    """The fingerprint of the domain's secret, None when it has none."""
    try:
        return secret_fingerprint(token_secret(domain))
    except ProviderNotConfigured:
        return None


def purge_url() -> str:
    value: str | None = settings.PROVIDER["delivery"].get("purge_url")
    if not value:
        raise ProviderNotConfigured("delivery: set PURGE_URL in the environment (see the README)")
    return value


def purge_service(domain: Domain | None) -> Service:
    """Whose operator signs a purge (DECISIONS, purge): the domain's storage service, else
    (a CDN domain, or URLs of no domain of ours) the default storage service."""
    if domain is not None and domain.service.is_storage:
        return domain.service
    return default_service()


def purge_client(domain: Domain | None = None) -> PurgeClient:
    """ProviderNotConfigured when PURGE_URL or the signing operator is missing."""
    access = storage_access(purge_service(domain))
    return PurgeClient(
        purge_url(),
        access.bucket,
        access.operator,
        access.password,
        observers=provider_observers("delivery"),
        timeout=float(settings.PROVIDER_TIMEOUT_S),
    )


def edge_fetcher() -> EdgeFetcher:
    return EdgeFetcher(
        observers=provider_observers("delivery"), timeout=float(settings.PROVIDER_TIMEOUT_S)
    )
