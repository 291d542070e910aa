"""Use cases of the delivery app, the only module other apps (and the pages) should import.

Each use case lives in a small module of its own; this module gathers them:

- links: `file_url`, `signed_link`, `secret_link`, `download_link`, `cache_bypass_link`,
  `combine_link`, `version_link`, `processed_link` (`delivery.services.links`);
- publishing: `publish`, `retry`, `preview`, `blocking_errors`,
  `secret_changed_since_publish` (`delivery.services.publishing`; the console target in
  `delivery.services.console_target`);
- purge: `request_manual_purge`, `purge_file_urls` and `purge_files_urls` (the storage
  hooks, one file or a folder job's files), `send_purge`,
  `due_purges`, `domains_of_urls` (`delivery.services.purging`);
- the console's refreshes: `refresh_rules`, `preheat`, `refresh_site` and their input checks
  (`delivery.services.refreshing`), and the operation list with the provider's progress,
  `operation_records` (`delivery.services.refresh_records`);
- counts: `purged_today`, `purges_per_day` (`delivery.services.counts`);
- rule sets: `save_rule_set`, `delete_rule_set` (`delivery.services.rulesets`);
- settings: `save_delivery_settings` (`delivery.services.edge_settings`);
- the Access page: "try it" of an auth URL, `try_auth_url` (`delivery.services.origin_auth`),
  and which panels the edge holds, `published_sections` (`delivery.services.access_panels`);
- security of own-origin domains: `save_security_settings`, `parse_limit_rules`,
  `security_applies` (`delivery.services.security`);
- previews: `fetch_from_edge` (`delivery.services.previews`);
- the chosen domain: `page_domain`, `domain_choices`, `choose_domain`,
  `named_domain` (`delivery.services.domains`);
- certificates and HTTPS: `upload_certificate`, `save_https`, `delete_certificate`,
  `warn_expiring_certificates` (the daily job), `days_left`, `expiring_certificates`,
  `certificate_days_left` (the metric) (`delivery.services.certificates`, the checks in
  `delivery.services.certificate_checks`);
- the tester: `run_test` (`delivery.services.testing`, over the pure `delivery.tester`);
- the upload page's `x-gmkerl-thumb`: `thumb_problems` (`delivery.services.image_checks`, over
  the image builder's rule `delivery.image_rules`).
"""

from __future__ import annotations

from backoffice.operations.provider import ProviderNotConfigured
from delivery.client import DeliveryConnectionError, DeliveryError
from delivery.services.access_panels import published_sections
from delivery.services.certificate_checks import CertificateRefused
from delivery.services.certificates import (
    CertificateInUse,
    HttpsChoice,
    certificate_days_left,
    check_https,
    days_left,
    delete_certificate,
    expiring_certificates,
    save_https,
    upload_certificate,
    warn_expiring_certificates,
)
from delivery.services.connection import current_secret_fingerprint, delivery_base_url
from delivery.services.counts import purged_today, purges_of, purges_per_day
from delivery.services.domains import choose_domain, domain_choices, named_domain, page_domain
from delivery.services.edge_settings import save_delivery_settings
from delivery.services.image_checks import IMAGE_PROBLEMS, thumb_problems
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
from delivery.services.origin_auth import AuthTry, try_auth_url
from delivery.services.previews import MAX_PREVIEW_BYTES, fetch_from_edge
from delivery.services.publishing import (
    ConfigTarget,
    PublishBlocked,
    PublishFailed,
    RetryObsolete,
    blocking_errors,
    edge_address,
    last_publication,
    last_successful_publication,
    preview,
    publish,
    retry,
    secret_changed_since_publish,
)
from delivery.services.purging import (
    MAX_URLS_PER_MINUTE,
    PurgeInputError,
    PurgeWindowFull,
    UrlProblem,
    domains_of_urls,
    due_purges,
    enqueue_purge,
    file_urls,
    parse_urls,
    purge_file_urls,
    purge_files_urls,
    request_manual_purge,
    resend_purges,
    send_purge,
)
from delivery.services.refresh_records import (
    ItemView,
    OperationList,
    OperationView,
    operation_records,
)
from delivery.services.refreshing import (
    MAX_PATTERNS,
    MAX_PREHEAT_URLS,
    ItemProblem,
    RefreshInputError,
    SiteRefreshRefused,
    parse_patterns,
    parse_preheat,
    preheat,
    refresh_rules,
    refresh_site,
    site_pattern,
)
from delivery.services.refusal_checks import RefusalReport, check_request
from delivery.services.rulesets import delete_rule_set, save_rule_set
from delivery.services.security import (
    MAX_BODY_MB,
    MIN_BODY_MB,
    LimitRulesError,
    parse_limit_rules,
    save_security_settings,
)
from delivery.services.security import applies as security_applies
from delivery.services.testing import country_lookup, default_host, run_test
from delivery.tester import outcome_dict

__all__ = [
    "IMAGE_PROBLEMS",
    "thumb_problems",
    "MAX_PATTERNS",
    "MAX_PREHEAT_URLS",
    "ItemProblem",
    "ItemView",
    "OperationList",
    "OperationView",
    "RefreshInputError",
    "SiteRefreshRefused",
    "operation_records",
    "parse_patterns",
    "parse_preheat",
    "preheat",
    "refresh_rules",
    "refresh_site",
    "site_pattern",
    "delete_rule_set",
    "save_delivery_settings",
    "try_auth_url",
    "published_sections",
    "AuthTry",
    "LimitRulesError",
    "MAX_BODY_MB",
    "MIN_BODY_MB",
    "parse_limit_rules",
    "save_security_settings",
    "security_applies",
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
    "PublishFailed",
    "RetryObsolete",
    "Signing",
    "blocking_errors",
    "edge_address",
    "cache_bypass_link",
    "combine_link",
    "current_secret_fingerprint",
    "default_host",
    "choose_domain",
    "domain_choices",
    "named_domain",
    "page_domain",
    "delivery_base_url",
    "download_link",
    "domains_of_urls",
    "due_purges",
    "enqueue_purge",
    "fetch_from_edge",
    "file_url",
    "file_urls",
    "last_publication",
    "last_successful_publication",
    "outcome_dict",
    "parse_urls",
    "preview",
    "processed_link",
    "publish",
    "retry",
    "purge_file_urls",
    "purge_files_urls",
    "purged_today",
    "purges_of",
    "purges_per_day",
    "request_manual_purge",
    "resend_purges",
    "run_test",
    "check_request",
    "country_lookup",
    "RefusalReport",
    "save_rule_set",
    "secret_changed_since_publish",
    "secret_link",
    "send_purge",
    "signed_link",
    "version_link",
    "CertificateInUse",
    "CertificateRefused",
    "HttpsChoice",
    "certificate_days_left",
    "check_https",
    "days_left",
    "delete_certificate",
    "expiring_certificates",
    "save_https",
    "upload_certificate",
    "warn_expiring_certificates",
]

