"""Use cases of the delivery app, the only module other apps (and the pages) should import.

Each use case lives in a small module of its own; this module gathers them:

- links: `file_url`, `signed_link`, `secret_link`, `download_link`, `cache_bypass_link`,
  `combine_link`, `version_link`, `processed_link` (`delivery.links`);
- publishing: `publish`, `preview`, `blocking_errors`, `secret_changed_since_publish`
  (`delivery.publishing`);
- purge: `request_manual_purge`, `purge_file_urls` (the storage hook), `send_purge`,
  `due_purges` (`delivery.purging`);
- the tester: `run_test` (`delivery.tester`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlsplit

from backoffice.provider import ProviderNotConfigured
from delivery.connection import current_secret_fingerprint, delivery_base_url
from delivery.links import (
    Signing,
    cache_bypass_link,
    combine_link,
    download_link,
    file_url,
    processed_link,
    secret_link,
    signed_link,
    version_link,
)
from delivery.publishing import (
    ConfigTarget,
    PublishBlocked,
    SandboxEdgeTarget,
    blocking_errors,
    last_publication,
    preview,
    publish,
    secret_changed_since_publish,
)
from delivery.purging import (
    MAX_URLS_PER_MINUTE,
    PurgeInputError,
    PurgeWindowFull,
    due_purges,
    file_urls,
    parse_urls,
    purge_file_urls,
    purged_today,
    request_manual_purge,
    send_purge,
)
from delivery.tester import SampleRequest, build_context, outcome_dict, run
from edgerules import Outcome, RuleSpec

__all__ = [
    "MAX_URLS_PER_MINUTE",
    "ConfigTarget",
    "PublishBlocked",
    "PurgeInputError",
    "PurgeWindowFull",
    "SandboxEdgeTarget",
    "Signing",
    "blocking_errors",
    "cache_bypass_link",
    "combine_link",
    "current_secret_fingerprint",
    "default_host",
    "download_link",
    "due_purges",
    "file_url",
    "file_urls",
    "last_publication",
    "outcome_dict",
    "parse_urls",
    "preview",
    "processed_link",
    "publish",
    "purge_file_urls",
    "purged_today",
    "request_manual_purge",
    "run_test",
    "secret_changed_since_publish",
    "secret_link",
    "send_purge",
    "signed_link",
    "version_link",
]


def default_host() -> str:
    """The edge's host name, used by the tester when the typed request names none."""
    try:
        return urlsplit(delivery_base_url()).netloc
    except ProviderNotConfigured:
        return "cdn.example.com"


def run_test(specs: Sequence[RuleSpec | Mapping[str, object]], request: SampleRequest) -> Outcome:
    """Run `specs` locally against the typed request (SampleInputError on a bad input)."""
    return run(specs, build_context(request, default_host=default_host()))
