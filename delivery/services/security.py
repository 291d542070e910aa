"""The security panel of own-origin domains: reading the IP access limit rules, saving the
panel, and its three console sections (`waf`, `body_limit`, `ip_limits`; edgeconfig.py).

Only a domain of a CDN service (own origin) has them: for a storage domain the page explains
this and a publish does not send them (the console refuses them for such a domain too).

A rule line is `<pattern> <count> ban <seconds>` or `<pattern> <count> delay <seconds>`:
- the pattern is a path starting with `/`, `*` for any run of characters, no spaces;
- count: 1 to 100000 requests of one client address in a 60 s window;
- ban: at least 60 s (at most 30 days), answered 403; delay: 1 to 30 s, the answer held.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from backoffice.annotations import StaffUser
from console.models import Domain, ServiceKind
from delivery.models import SecuritySettings
from providerkit.json_types import JSONObject, JSONValue

MIN_BODY_MB = 1
MAX_BODY_MB = 10240
DEFAULT_BODY_MB = 512
MAX_COUNT = 100000
MIN_BAN_SECONDS = 60
MAX_BAN_SECONDS = 30 * 86400
MAX_DELAY_SECONDS = 30
MAX_RULES = 100
ACTIONS = ("ban", "delay")


@dataclass(frozen=True)
class LimitRule:
    pattern: str
    count: int
    action: str
    seconds: int

    def as_json(self) -> JSONObject:
        return {"pattern": self.pattern, "count": self.count, "action": self.action,
                "seconds": self.seconds}


class LimitRulesError(ValueError):
    """The lines that are wrong: (1-based line number, what is wrong)."""

    def __init__(self, problems: list[tuple[int, str]]) -> None:
        super().__init__("; ".join(f"line {line}: {text}" for line, text in problems))
        self.problems = problems


def applies(domain: Domain) -> bool:
    """Whether the domain has the security panel: a domain of an own-origin (CDN) service."""
    return bool(domain.service.kind == ServiceKind.CDN)


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _read_line(line: str) -> tuple[LimitRule | None, str]:
    parts = line.split()
    if len(parts) != 4:
        return None, _("write a path pattern, a count, then ban or delay and the seconds, "
                       "e.g. /login* 10 ban 600")
    pattern, count_text, action, seconds_text = parts
    if not pattern.startswith("/"):
        return None, _("the path pattern must start with /")
    count = _number(count_text)
    if count is None or not 1 <= count <= MAX_COUNT:
        return None, _("the count must be a whole number from 1 to %(max)s") % {
            "max": MAX_COUNT}
    action = action.lower()
    if action not in ACTIONS:
        return None, _("the action must be ban or delay, not %(action)s") % {
            "action": parts[2]}
    seconds = _number(seconds_text)
    if action == "ban" and (seconds is None or not MIN_BAN_SECONDS <= seconds
                            <= MAX_BAN_SECONDS):
        return None, _("a ban lasts a whole number of seconds from %(min)s to %(max)s") % {
            "min": MIN_BAN_SECONDS, "max": MAX_BAN_SECONDS}
    if action == "delay" and (seconds is None or not 1 <= seconds <= MAX_DELAY_SECONDS):
        return None, _("a delay is a whole number of seconds from 1 to %(max)s") % {
            "max": MAX_DELAY_SECONDS}
    assert seconds is not None
    return LimitRule(pattern, count, action, seconds), ""


def parse_limit_rules(text: str) -> list[LimitRule]:
    """The rules of the text, in order (blank lines skipped); LimitRulesError naming every
    wrong line by its number in the text."""
    rules: list[LimitRule] = []
    problems: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        rule, problem = _read_line(line.strip())
        if rule is None:
            problems.append((number, problem))
        else:
            rules.append(rule)
    if len(rules) > MAX_RULES:
        problems.append((0, _("at most %(max)s rules") % {"max": MAX_RULES}))
    if problems:
        raise LimitRulesError(problems)
    return rules


def security_sections(row: SecuritySettings) -> dict[str, JSONValue]:
    """The panel as the console's three sections. Rules stored before a check changed are
    read leniently: a line that no longer reads is left out rather than stopping a publish."""
    try:
        rules = parse_limit_rules(row.ip_limit_rules)
    except LimitRulesError:
        rules = [rule for line in row.ip_limit_rules.splitlines() if line.strip()
                 for rule in [_read_line(line.strip())[0]] if rule is not None]
    return {
        "waf": {"enabled": row.waf_enabled},
        "body_limit": {"max_mb": row.max_body_mb},
        "ip_limits": [rule.as_json() for rule in rules],
    }


def security_for(domain: Domain) -> SecuritySettings | None:
    """The domain's security settings, None for a storage domain (nothing to send)."""
    return SecuritySettings.for_domain(domain) if applies(domain) else None


def save_security_settings(row: SecuritySettings, user: StaffUser) -> SecuritySettings:
    """Store the checked panel (the form has read the rules); nothing reaches the edge until
    the next publish."""
    with transaction.atomic():
        row.updated_by = user
        row.save()
    return row
