"""Each domain's published edge settings: one row per domain, compiled once per change.

A domain without a row has the defaults. Every edge request reads its domain's revision (one
small query) and uses the compiled copy of that domain and revision: the rule set compiled by
edgerules, networks and User-Agent patterns parsed, the versions' recipes ready. A save gets a
fresh random revision, so a compiled copy can never be mistaken for the settings of another
save (or of the account before a reset).
"""

from __future__ import annotations

import copy
import ipaddress
import threading
import uuid
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from edgerules import RuleSet, compile_rule_set
from sandbox.core import clock
from sandbox.core.account import current_account
from sandbox.delivery import access, imageparams
from sandbox.delivery.access import AgentPattern, Network, RefererRule
from sandbox.delivery.imageparams import Recipe
from sandbox.delivery.ip_limits import LimitRule
from sandbox.delivery.models import EdgeSettings

DEFAULTS: dict[str, Any] = {
    "token_protection": False,
    "token_secret": "",  # "": the account's delivery_token_secret
    "separator": "!",
    "versions": {},
    "rules": [],
    "cors": {},
    "referer": {"mode": "off", "domains": [], "deny_empty": False},
    "ip_blacklist": [],
    "ua_whitelist": [],
    "force_https": False,
    "https_access": False,  # TLS on the HTTPS port for the domain's name (tls.py)
    "https_certificate": "",  # the bound certificate's id at the console, "" none
    "html_minify": False,
    "combine": False,
    "param_follow": False,
    "domains": [],
    "region": {"mode": "off", "regions": []},
    "origin_auth": {"url": "", "timeout": 3, "timeout_refuses": True},
    "external_links": True,
    # security of own-origin domains (sandbox.delivery.security)
    "waf": False,
    "max_body_mb": 512,
    "ip_limits": [],
}


@dataclass(frozen=True)
class Published:
    """The settings as the edge uses them."""

    domain: str
    revision: str
    data: dict[str, Any]
    token_secret: str
    rule_set: RuleSet
    versions: dict[str, Recipe]
    referer: RefererRule
    blacklist: tuple[Network, ...]
    agents: tuple[AgentPattern, ...]
    limits: tuple[LimitRule, ...] = ()

    @property
    def separator(self) -> str:
        return str(self.data["separator"])

    def flag(self, name: str) -> bool:
        return bool(self.data[name])

    def answer(self) -> dict[str, Any]:
        """The full current settings, as the control API shows them."""
        return {**copy.deepcopy(self.data), "token_secret": self.token_secret}


_lock = threading.Lock()
_compiled: dict[tuple[str, str], Published] = {}  # (domain, revision) -> settings


def published(domain: str) -> Published:
    """The domain's current settings, compiled; per request this costs one indexed read of the
    revision. A domain without a row (revision "") has the defaults."""
    rows = EdgeSettings.objects.filter(domain=domain)
    revision = rows.values_list("revision", flat=True).first() or ""
    found = _compiled.get((domain, revision))
    if found is not None:
        return found
    row = rows.first()  # revision and data of one and the same save
    data = {**copy.deepcopy(DEFAULTS), **(row.data if row is not None else {})}
    compiled = compile_settings(domain, row.revision if row is not None else "", data)
    with _lock:
        # Only the domain's current revision is ever needed again.
        for key in [key for key in _compiled if key[0] == domain]:
            del _compiled[key]
        _compiled[(domain, compiled.revision)] = compiled
    return compiled


def compile_settings(domain: str, revision: str, data: dict[str, Any]) -> Published:
    referer = data["referer"]
    return Published(
        domain=domain,
        revision=revision,
        data=data,
        token_secret=data["token_secret"] or current_account().delivery_token_secret,
        rule_set=compile_rule_set(data["rules"]),
        versions={name: imageparams.parse(text) for name, text in data["versions"].items()},
        referer=RefererRule(referer["mode"], tuple(referer["domains"]), referer["deny_empty"]),
        blacklist=tuple(ipaddress.ip_network(entry, strict=False)
                        for entry in data["ip_blacklist"]),
        agents=tuple(access.agent_pattern(entry) for entry in data["ua_whitelist"]),
        limits=tuple(LimitRule.from_json(item) for item in data["ip_limits"]),
    )


def save(domain: str, changes: dict[str, Any]) -> str:
    """Apply validated changes (config_input.changes_from) on top of the domain's current
    settings; returns the new revision."""
    revision = uuid.uuid4().hex
    with transaction.atomic():
        row = EdgeSettings.objects.select_for_update().filter(domain=domain).first()
        data = {**copy.deepcopy(DEFAULTS), **(row.data if row is not None else {}), **changes}
        EdgeSettings.objects.update_or_create(
            domain=domain, defaults={"data": data, "revision": revision,
                                     "updated_at": clock.now()})
    return revision


def drop(domain: str) -> None:
    """Forget the domain's settings (it was unbound): bound again, it starts from the defaults."""
    EdgeSettings.objects.filter(domain=domain).delete()
    with _lock:
        for key in [key for key in _compiled if key[0] == domain]:
            del _compiled[key]


def domains_using_certificate(certificate_id: str) -> list[str]:
    """The domains whose settings bind the certificate."""
    return sorted(row.domain for row in EdgeSettings.objects.all()
                  if row.data.get("https_certificate") == certificate_id)


def forget() -> None:
    """Drop compiled copies (on reset: the next request compiles the defaults afresh)."""
    with _lock:
        _compiled.clear()
