"""The domain's published edge settings: stored as one row, compiled once per change.

Every edge request reads the row's revision (one small query) and uses the compiled copy of
that revision: the rule set compiled by edgerules, networks and User-Agent patterns parsed, the
versions' recipes ready. A save gets a fresh random revision, so a compiled copy can never be
mistaken for the settings of another save (or of the account before a reset).
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
    "html_minify": False,
    "combine": False,
    "param_follow": False,
    "domains": [],
}


@dataclass(frozen=True)
class Published:
    """The settings as the edge uses them."""

    revision: str
    data: dict[str, Any]
    token_secret: str
    rule_set: RuleSet
    versions: dict[str, Recipe]
    referer: RefererRule
    blacklist: tuple[Network, ...]
    agents: tuple[AgentPattern, ...]

    @property
    def separator(self) -> str:
        return str(self.data["separator"])

    def flag(self, name: str) -> bool:
        return bool(self.data[name])

    def answer(self) -> dict[str, Any]:
        """The full current settings, as the control API shows them."""
        return {**copy.deepcopy(self.data), "token_secret": self.token_secret}


_lock = threading.Lock()
_compiled: dict[str, Published] = {}


def published() -> Published:
    """The current settings, compiled; per request this costs one indexed read of the revision."""
    revision = EdgeSettings.objects.filter(pk=1).values_list("revision", flat=True).first()
    found = _compiled.get(revision or "")
    if found is not None:
        return found
    row = EdgeSettings.objects.filter(pk=1).first()  # revision and data of one and the same save
    data = {**copy.deepcopy(DEFAULTS), **(row.data if row is not None else {})}
    compiled = compile_settings(row.revision if row is not None else "", data)
    with _lock:
        _compiled.clear()  # only the current revision is ever needed again
        _compiled[compiled.revision] = compiled
    return compiled


def compile_settings(revision: str, data: dict[str, Any]) -> Published:
    referer = data["referer"]
    return Published(
        revision=revision,
        data=data,
        token_secret=data["token_secret"] or current_account().delivery_token_secret,
        rule_set=compile_rule_set(data["rules"]),
        versions={name: imageparams.parse(text) for name, text in data["versions"].items()},
        referer=RefererRule(referer["mode"], tuple(referer["domains"]), referer["deny_empty"]),
        blacklist=tuple(ipaddress.ip_network(entry, strict=False)
                        for entry in data["ip_blacklist"]),
        agents=tuple(access.agent_pattern(entry) for entry in data["ua_whitelist"]),
    )


def save(changes: dict[str, Any]) -> None:
    """Apply validated changes (config_input.changes_from) on top of the current settings."""
    with transaction.atomic():
        row = EdgeSettings.objects.select_for_update().filter(pk=1).first()
        data = {**copy.deepcopy(DEFAULTS), **(row.data if row is not None else {}), **changes}
        EdgeSettings.objects.update_or_create(
            pk=1, defaults={"data": data, "revision": uuid.uuid4().hex,
                            "updated_at": clock.now()})


def forget() -> None:
    """Drop compiled copies (on reset: the next request compiles the defaults afresh)."""
    with _lock:
        _compiled.clear()
