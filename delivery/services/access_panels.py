"""Whether the edge holds what the Access page's panels saved (their console sections)."""

from __future__ import annotations

from collections.abc import Sequence

from console.models import Domain
from delivery.models import DeliverySettings, PublishedConfig
from delivery.services import edgeconfig
from delivery.services.publishing import preview

RECORDS_READ = 20


def published_sections(domain: Domain, names: Sequence[str]) -> dict[str, bool]:
    """Per section: True when the newest publication that got it through sent the value a
    publish would send now; before any did, when the value is still the defaults' (there is
    nothing to publish)."""
    now = preview(domain, None)
    defaults = edgeconfig.build_sections(DeliverySettings(), [], None, "")
    found: dict[str, bool] = {}
    for record in PublishedConfig.objects.filter(domain=domain).order_by("-pk")[:RECORDS_READ]:
        for name in names:
            answer = (record.answers or {}).get(name)
            if name not in found and isinstance(answer, dict) and answer.get("ok"):
                found[name] = record.config.get(name) == now.get(name)
    return {name: found.get(name, now.get(name) == defaults[name]) for name in names}
