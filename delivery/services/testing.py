"""Running rules locally against a typed request: the rule tester's use case."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlsplit

from backoffice.operations.provider import ProviderNotConfigured
from delivery.services.connection import delivery_base_url
from delivery.tester import SampleRequest, build_context, run
from edgerules import Outcome, RuleSpec


def default_host() -> str:
    """The edge's host name, used by the tester when the typed request names none."""
    try:
        return urlsplit(delivery_base_url()).netloc
    except ProviderNotConfigured:
        return "cdn.example.com"


def run_test(specs: Sequence[RuleSpec | Mapping[str, object]], request: SampleRequest) -> Outcome:
    """Run `specs` locally against the typed request (SampleInputError on a bad input)."""
    return run(specs, build_context(request, default_host=default_host()))
