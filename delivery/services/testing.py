"""Running rules locally against a typed request: the rule tester's use case."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from console.models import Domain
from delivery.tester import SampleRequest, build_context, run
from edgerules import Outcome, RuleSpec

FALLBACK_HOST = "cdn.example.com"


def default_host(domain: Domain | None) -> str:
    """The host the tester uses when the typed request names none: the domain's name, as a
    visitor of that domain sends it (not the sandbox's address and port); a stand-in when the
    account has no domain yet (rules can be tried before any domain exists)."""
    return domain.name if domain is not None else FALLBACK_HOST


def run_test(domain: Domain | None, specs: Sequence[RuleSpec | Mapping[str, object]],
             request: SampleRequest) -> Outcome:
    """Run `specs` locally against the typed request (SampleInputError on a bad input)."""
    return run(specs, build_context(request, default_host=default_host(domain)))
