"""How to reach a service and a domain: addresses and credentials, ready for a client.

Services from the environment read `STORAGE_*` / `DELIVERY_*` here, at every use; the others
read their own (sealed) fields and the storage API address of their entry line.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Domain, EntryLine, Service

# storage-and-media.md's four entry addresses; STORAGE_LINE_URLS overrides them (the sandbox).
PROVIDER_LINES = {
    EntryLine.AUTO: "https://v0.api.upyun.com",
    EntryLine.TELECOM: "https://v1.api.upyun.com",
    EntryLine.UNICOM: "https://v2.api.upyun.com",
    EntryLine.CMCC: "https://v3.api.upyun.com",
}


@dataclass(frozen=True)
class StorageAccess:
    """What a storage client needs. `fallback_url` is smart routing, tried once when the
    chosen line cannot be reached ('' when the line is smart routing already)."""

    url: str
    fallback_url: str
    bucket: str
    operator: str
    password: str
    signature: str


@dataclass(frozen=True)
class DomainAccess:
    base_url: str
    token_secret: str


def line_url(line: str) -> str:
    configured: dict[str, str] = settings.PROVIDER["storage"].get("lines") or {}
    return (configured.get(line) or PROVIDER_LINES[EntryLine(line)]).rstrip("/")


def storage_access(service: Service) -> StorageAccess:
    """ProviderNotConfigured names what is missing."""
    signature = str(settings.PROVIDER["storage"].get("signature") or "current")
    if service.from_environment:
        values = settings.PROVIDER["storage"]
        missing = [name for name, key in (("STORAGE_URL", "url"), ("STORAGE_OPERATOR", "operator"),
                                          ("STORAGE_PASSWORD", "password")) if not values.get(key)]
        if missing:
            raise ProviderNotConfigured(
                f"storage: set {', '.join(missing)} in the environment (see the README)")
        return StorageAccess(str(values["url"]).rstrip("/"), "", service.name,
                             str(values["operator"]), str(values["password"]), signature)
    if not service.is_storage:
        raise ProviderNotConfigured(f"{service.name} is a CDN service: it has no bucket")
    if not (service.operator and service.operator_password):
        raise ProviderNotConfigured(f"storage: service {service.name} has no operator")
    url = line_url(service.line)
    fallback = "" if service.line == EntryLine.AUTO else line_url(EntryLine.AUTO)
    return StorageAccess(url, fallback, service.name, service.operator,
                         service.operator_password, signature)


def domain_access(domain: Domain) -> DomainAccess:
    if domain.from_environment:
        values = settings.PROVIDER["delivery"]
        url = str(values.get("delivery_url") or "")
        if not url:
            raise ProviderNotConfigured(
                "delivery: set DELIVERY_URL in the environment (see the README)")
        return DomainAccess(url.rstrip("/"), str(values.get("token_secret") or ""))
    return DomainAccess((domain.base_url or f"https://{domain.name}").rstrip("/"),
                        domain.token_secret)
