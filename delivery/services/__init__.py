"""Use cases of the delivery app, the only module other apps (and the pages) should import.

Each use case lives in a small module of its own; this module gathers them:

- links: `file_url`, `signed_link`, `secret_link`, `download_link`, `cache_bypass_link`,
  `combine_link`, `version_link`, `processed_link` (`delivery.services.links`);
- publishing: `publish`, `preview`, `blocking_errors`, `secret_changed_since_publish`
  (`delivery.services.publishing`);
- purge: `request_manual_purge`, `purge_file_urls` (the storage hook), `send_purge`,
  `due_purges` (`delivery.services.purging`);
- counts: `purged_today`, `purges_per_day` (`delivery.services.counts`);
- rule sets: `save_rule_set`, `delete_rule_set` (`delivery.services.rulesets`);
- settings: `save_delivery_settings` (`delivery.services.edge_settings`);
- previews: `fetch_from_edge` (`delivery.services.previews`);
- the tester: `run_test` (`delivery.services.testing`, over the pure `delivery.tester`).
"""

from __future__ import annotations

from backoffice.operations.provider import ProviderNotConfigured
from delivery.client import DeliveryConnectionError, DeliveryError
from delivery.services.connection import current_secret_fingerprint, delivery_base_url
from delivery.services.counts import purged_today, purges_per_day
from delivery.services.edge_settings import save_delivery_settings
from delivery.services.links import (
    Signing,
    cache_bypass_link,
    combine_link,
    download_link,
    file_url,
    preview_signing,
    processed_link,
    secret_link,
    signed_link,
    version_link,
)
from delivery.services.previews import MAX_PREVIEW_BYTES, fetch_from_edge
from delivery.services.publishing import (
    ConfigTarget,
    PublishBlocked,
    SandboxEdgeTarget,
    blocking_errors,
    edge_address,
    last_publication,
    preview,
    publish,
    secret_changed_since_publish,
)
from delivery.services.purging import (
    MAX_URLS_PER_MINUTE,
    PurgeInputError,
    PurgeWindowFull,
    UrlProblem,
    due_purges,
    enqueue_purge,
    file_urls,
    parse_urls,
    purge_file_urls,
    request_manual_purge,
    resend_purges,
    send_purge,
)
from delivery.services.rulesets import delete_rule_set, save_rule_set
from delivery.services.testing import default_host, run_test
from delivery.tester import outcome_dict

__all__ = [
    "delete_rule_set",
    "save_delivery_settings",
    "UrlProblem",
    "preview_signing",
    "ProviderNotConfigured",
    "ConfigTarget",
    "DeliveryConnectionError",
    "DeliveryError",
    "MAX_PREVIEW_BYTES",
    "MAX_URLS_PER_MINUTE",
    "PublishBlocked",
    "PurgeInputError",
    "PurgeWindowFull",
    "SandboxEdgeTarget",
    "Signing",
    "blocking_errors",
    "edge_address",
    "cache_bypass_link",
    "combine_link",
    "current_secret_fingerprint",
    "default_host",
    "delivery_base_url",
    "download_link",
    "due_purges",
    "enqueue_purge",
    "fetch_from_edge",
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
    "purges_per_day",
    "request_manual_purge",
    "resend_purges",
    "run_test",
    "save_rule_set",
    "secret_changed_since_publish",
    "secret_link",
    "send_purge",
    "signed_link",
    "version_link",
]

