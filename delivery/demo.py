"""Demo data for `make run` (hook: `load(stdout)`): idempotent, talks to the sandbox.

- two image versions, `thumb` (/fw/200) and `webp` (/fw/600/format/webp), kept as they are
  when they exist so staff edits survive a restart;
- a demo rule set with a few rules (a rewrite, a redirect, a header, a debug rule);
- the settings, versions and rule set published to the sandbox edge.
"""

from __future__ import annotations

from typing import TextIO

from django.contrib.auth import get_user_model

from backoffice.provider import ProviderNotConfigured
from delivery import services
from delivery.client import DeliveryError
from delivery.models import DeliverySettings, ImageVersion, Rule, RuleSet

VERSIONS = {"thumb": "/fw/200", "webp": "/fw/600/format/webp"}
RULE_SET_NAME = "Demo rules"
RULES = [
    {"pattern": r"^/(.*)/playlist\.m3u8$", "rule": "/$1'.m3u8'", "breaks": True,
     "debug": False},
    {"pattern": r"^/old/(.*)$", "rule": "$REDIRECT(/new/$1, 301)", "breaks": False,
     "debug": False},
    {"pattern": r"\.(jpg|png|webp)$", "rule": "$ADD_RSP_HEADER(X-Served-By, demo-edge, )",
     "breaks": False, "debug": False},
    {"pattern": r"^/beta/(.*)$", "rule": "/$1", "breaks": False, "debug": True},
]


def load_versions() -> int:
    created = 0
    for name, params in VERSIONS.items():
        _version, was_created = ImageVersion.objects.get_or_create(
            name=name, defaults={"params": params})
        created += was_created
    return created


def load_rule_set() -> tuple[RuleSet, bool]:
    rule_set, created = RuleSet.objects.get_or_create(
        name=RULE_SET_NAME,
        defaults={"description": "Examples: an HLS rewrite, a redirect, a response header and "
                                 "a rule still in debug mode."})
    if created:
        for position, rule in enumerate(RULES, start=1):
            Rule.objects.create(rule_set=rule_set, position=position, **rule)
    return rule_set, created


def load(stdout: TextIO) -> None:
    DeliverySettings.current()
    created = load_versions()
    stdout.write(f"  delivery: {created} image versions added, {len(VERSIONS) - created} kept\n")
    rule_set, created = load_rule_set()
    stdout.write(f"  delivery: rule set {rule_set.name!r} {'added' if created else 'kept'}\n")
    user = get_user_model().objects.filter(username="demo").first()
    try:
        record = services.publish(user=user, rule_set=rule_set)
    except (ProviderNotConfigured, DeliveryError, services.PublishBlocked) as error:
        stdout.write(f"  delivery: not published: {error}\n")
        return
    stdout.write(f"  delivery: settings and {rule_set.name!r} published to {record.target}\n")
