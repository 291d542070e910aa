"""The external-links switch (DECISIONS.md, "Documented console behaviour"): when the setting
`external_links` is off, every request of the domain is answered 405 `EXTERNAL_LINKS_OFF`,
before anything else the edge does for it (no redirect, rule, check or content)."""

from __future__ import annotations

from sandbox.delivery.errors import EXTERNAL_LINKS_OFF, EdgeError


def check(enabled: bool) -> None:
    """Raises the 405 when the switch is off."""
    if not enabled:
        raise EdgeError(405, EXTERNAL_LINKS_OFF,
                        "external links are switched off for this domain")
