"""The "why was I refused" tester's data: the domain's published sections, its token secret
and the country lookup, handed to the pure `delivery.refusal_tester`."""

from __future__ import annotations

from dataclasses import dataclass

from backoffice.operations.provider import ProviderNotConfigured
from console.models import Domain
from delivery.models import PublishedConfig
from delivery.refusal_tester import Probe, Verdict, run_checks
from delivery.services.connection import token_secret
from delivery.services.publishing import last_successful_publication
from delivery.services.testing import country_lookup


@dataclass(frozen=True)
class RefusalReport:
    """`publication` None: nothing was ever published, so the edge has its defaults. `country`
    is the one the checks used (typed, or looked up; "" when unknown)."""

    publication: PublishedConfig | None
    verdicts: list[Verdict]
    country: str


def check_request(domain: Domain, probe: Probe, now: float | None = None) -> RefusalReport:
    """ProbeError names a bad field of `probe`."""
    publication = last_successful_publication(domain)
    sections = publication.config if publication is not None else {}
    lookup = country_lookup()
    country = probe.country.upper() or (
        (lookup.country(probe.client_ip) or "") if lookup and probe.client_ip else "")
    try:
        secret = token_secret(domain)
    except ProviderNotConfigured:
        secret = ""  # the token's signature is then reported as not checked
    verdicts = run_checks(sections, probe, host=domain.name, secret=secret, now=now,
                          country_of=lookup.country if lookup else None)
    return RefusalReport(publication, verdicts, country)
