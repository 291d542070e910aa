"""What an own-origin (cdn) service says about serving one of its domains: its origin
addresses and its mirror storage, read from the console's service row.

Read on each request to such a domain (one indexed query), so a change made through the
console applies to the very next request; entries it does not understand are left out (the
console validates what it stores).
"""

from __future__ import annotations

from sandbox.console.models import Service
from sandbox.delivery.mirror import Mirror
from sandbox.delivery.origin import Origin
from sandbox.delivery.own_origin import OwnOrigin
from sandbox.delivery.sites import Site


def own_origin_of(site: Site) -> OwnOrigin | None:
    """The own-origin service of `site`; None for a storage domain (or a service gone)."""
    if site.bucket is not None:
        return None
    row = Service.objects.filter(name=site.service,
                                 business_type=Service.BusinessType.CDN).values(
        "origins", "mirror_status", "mirror_storage_bucket", "mirror_cache_seconds").first()
    if row is None:
        return None
    origins = tuple(Origin.from_json(item) for item in row["origins"] or []
                    if isinstance(item, dict) and "address" in item)
    mirror = Mirror.from_fields(row["mirror_status"], row["mirror_storage_bucket"],
                                row["mirror_cache_seconds"])
    return OwnOrigin(service=site.service, domain=site.domain, origins=origins, mirror=mirror)
