"""Links as staff build them: the pure builders of `delivery.rules` fed with the domain's
link address, separator and token secret."""

from __future__ import annotations

import time
from dataclasses import dataclass

from console.models import Domain
from delivery import rules
from delivery.models import DeliverySettings, ImageVersion
from delivery.services.connection import delivery_base_url, token_secret


@dataclass(frozen=True)
class Signing:
    """How to sign a link: valid until `etime` (UNIX seconds), `_upp` level or None."""

    etime: int
    upp: int | None = None


def separator(domain: Domain) -> str:
    return DeliverySettings.for_domain(domain).separator


def file_url(domain: Domain, path: str, suffix: str = "") -> str:
    """The edge URL of a file on `domain`, optionally followed by a separator suffix
    (`!thumb`, `!/fw/300`); the suffix must start with the domain's separator."""
    url = rules.edge_url(delivery_base_url(domain), path)
    suffix = suffix.strip()
    if suffix:
        sep = separator(domain)
        problems = []
        if not suffix.startswith(sep):
            problems.append(rules.problem("suffix", "suffix_separator",
                                          "must start with the separator {separator}",
                                          separator=sep))
        if any(ch.isspace() or ch in "?#" for ch in suffix):
            problems.append(rules.problem("suffix", "suffix_chars",
                                          "must not contain spaces, ? or #"))
        rules.require(problems)
    return url + suffix


def sign(domain: Domain, url: str, signing: Signing | None) -> str:
    if signing is None:
        return url
    return rules.signed_url(url, token_secret(domain), signing.etime, signing.upp)


def signed_link(domain: Domain, path: str, signing: Signing, suffix: str = "") -> str:
    return sign(domain, file_url(domain, path, suffix), signing)


def secret_link(domain: Domain, path: str, secret: str, signing: Signing | None = None) -> str:
    return sign(domain, rules.secret_url(file_url(domain, path), separator(domain), secret),
                signing)


def download_link(domain: Domain, path: str, name: str | None,
                  signing: Signing | None = None) -> str:
    return sign(domain, rules.download_url(file_url(domain, path), name), signing)


def cache_bypass_link(domain: Domain, path: str, value: str,
                      signing: Signing | None = None) -> str:
    return sign(domain, rules.cache_bypass_url(file_url(domain, path), value), signing)


def combine_link(domain: Domain, directory: str, files: list[str],
                 signing: Signing | None = None) -> str:
    return sign(domain, rules.combine_url(delivery_base_url(domain), directory, files), signing)


def version_link(domain: Domain, path: str, name: str, signing: Signing | None = None,
                 pairs: list[tuple[str, str]] | None = None) -> str:
    """`<file URL><sep><version>`, followed by parameters when `pairs` are given."""
    if not ImageVersion.objects.filter(domain=domain, name=name).exists():
        raise rules.LinkError([rules.problem("version", "version_unknown",
                                             "no image version is named {value}", value=name)])
    return sign(domain, rules.version_url(file_url(domain, path), separator(domain), name,
                                          pairs or ()), signing)


def processed_link(domain: Domain, path: str, pairs: list[tuple[str, str]],
                   signing: Signing | None = None) -> str:
    return sign(domain, rules.processed_image_url(file_url(domain, path), separator(domain),
                                                  pairs), signing)


def preview_signing(token_protection: bool, lifetime_s: int = 600) -> Signing | None:
    """A short-lived token for the back-office's own preview fetches when protection is on."""
    return Signing(int(time.time()) + lifetime_s) if token_protection else None
