"""Running rules locally against a typed request: the rule tester's use case."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from functools import lru_cache

from django.conf import settings

from console.models import Domain
from delivery.geo import CountryLookup, GeoDatabaseError
from delivery.tester import SampleRequest, build_context, run
from edgerules import Outcome, RuleSpec

FALLBACK_HOST = "cdn.example.com"
logger = logging.getLogger(__name__)


def default_host(domain: Domain | None) -> str:
    """The host the tester uses when the typed request names none: the domain's name, as a
    visitor of that domain sends it (not the sandbox's address and port); a stand-in when the
    account has no domain yet (rules can be tried before any domain exists)."""
    return domain.name if domain is not None else FALLBACK_HOST


@lru_cache(maxsize=4)
def _lookup(path: str) -> CountryLookup | None:
    try:
        return CountryLookup.open(path)
    except GeoDatabaseError as error:
        logger.error("GEOIP_DATABASE: %s; the tester knows no country", error)
        return None


def country_lookup() -> CountryLookup | None:
    """The lookup of the GEOIP_DATABASE setting, opened once; None without one (or when it
    cannot be read, which is logged)."""
    path = str(getattr(settings, "GEOIP_DATABASE", "") or "")
    return _lookup(path) if path else None


def run_test(domain: Domain | None, specs: Sequence[RuleSpec | Mapping[str, object]],
             request: SampleRequest) -> Outcome:
    """Run `specs` locally against the typed request (SampleInputError on a bad input)."""
    lookup = country_lookup()
    return run(specs, build_context(request, default_host=default_host(domain),
                                    country_of=lookup.country if lookup else None))
