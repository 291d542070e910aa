"""Which own-origin service, if any, a request's Host names (docs/decisions.md, "Domains at the
sandbox edge"): the host without its port, looked up among the bound domains. A domain of a
storage service, an unknown host, an IP literal or `localhost` is not an own-origin site: the
edge serves it from storage as before.

The binding comes from the console's directory (a snapshot in memory); the service's origins
and mirror fields are read from its row on each request to an own-origin domain, so a change
made through the console applies to the very next request.
"""

from __future__ import annotations

from sandbox.console import directory
from sandbox.console.models import Service
from sandbox.delivery.mirror import Mirror
from sandbox.delivery.origin import Origin
from sandbox.delivery.own_origin import OwnOrigin


def host_name(host_header: str) -> str:
    """`Host` without its port, lowercase, no trailing dot (`[::1]:80` gives `::1`)."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.rsplit(":", 1)[0]
    return host.rstrip(".")


def own_origin_site(host_header: str) -> OwnOrigin | None:
    bound = directory.bound_domain(host_name(host_header))
    if bound is None or bound.business_type != Service.BusinessType.CDN:
        return None
    row = Service.objects.filter(name=bound.service).values(
        "origins", "mirror_status", "mirror_storage_bucket", "mirror_cache_seconds").first()
    if row is None:  # unbound meanwhile
        return None
    origins = tuple(Origin.from_json(item) for item in row["origins"] or []
                    if isinstance(item, dict) and "address" in item)
    mirror = Mirror.from_fields(row["mirror_status"], row["mirror_storage_bucket"],
                                row["mirror_cache_seconds"])
    return OwnOrigin(service=bound.service, domain=bound.name, origins=origins, mirror=mirror)
