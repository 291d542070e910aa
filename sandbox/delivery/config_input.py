"""Validation of `POST /delivery/config`: every bad value is a FieldError naming it (400).

A key given replaces that whole setting (an object such as `cors` or `referer` included); keys
left out keep their current value. Values are normalised here (header names in their canonical
spelling, networks in CIDR form...) so the stored settings are always valid.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Any

from sandbox.core.json_types import JSONObject
from sandbox.core.jsonapi import FieldError
from sandbox.delivery import access, body_limit, imageparams, ip_limits, origin_auth, region

SEPARATORS = ("!", "-", "_")
REFERER_MODES = ("off", "allow", "deny")
CORS_HEADERS = (
    "Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers",
    "Access-Control-Expose-Headers", "Access-Control-Max-Age",
)
BOOLEAN_KEYS = ("token_protection", "force_https", "https_access", "html_minify", "combine",
                "param_follow", "external_links", "waf")
KEYS = ("token_protection", "token_secret", "separator", "versions", "rules", "cors", "referer",
        "ip_blacklist", "ua_whitelist", "force_https", "html_minify", "combine", "param_follow",
        "domains", "https_access", "https_certificate", "region", "origin_auth",
        "external_links", "waf", "max_body_mb", "ip_limits")
LIMIT_KEYS = ("pattern", "count", "action", "seconds")
RULE_KEYS = ("pattern", "rule", "break", "state", "test_addresses", "debug")
RULE_STATES = ("enabled", "off", "test")
MAX_TEST_ADDRESSES = 20
MAX_ITEMS = 1000
MAX_TEXT = 4096
_VERSION_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_DOMAIN = re.compile(rf"(?:\*\.)?{_LABEL}(?:\.{_LABEL})*")
# A Referer entry: a host pattern whose `*` stands for any run of characters (cdn/advanced.md).
_HOST_PATTERN = re.compile(r"(?=.*[a-z0-9])[a-z0-9.*-]+")


def changes_from(body: JSONObject) -> dict[str, Any]:
    """The settings to change, normalised. `token_secret: null` restores the account's secret
    (stored as ""); any other null is refused, since it would be ambiguous."""
    unknown = sorted(set(body) - set(KEYS))
    if unknown:
        raise FieldError(unknown[0], f"is not a delivery setting; known: {', '.join(KEYS)}")
    readers: dict[str, Callable[[Any], Any]] = {
        "token_secret": token_secret, "separator": separator, "versions": versions,
        "rules": rules, "cors": cors, "referer": referer, "ip_blacklist": ip_blacklist,
        "ua_whitelist": ua_whitelist, "domains": domains,
        "https_certificate": https_certificate, "region": region.setting,
        "origin_auth": origin_auth.setting, "max_body_mb": max_body_mb,
        "ip_limits": ip_limit_rules,
    }
    changes: dict[str, Any] = {}
    for key, value in body.items():
        if key in BOOLEAN_KEYS:
            changes[key] = boolean(key, value)
        else:
            changes[key] = readers[key](value)
    return changes


def boolean(field: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise FieldError(field, "must be true or false")
    return value


def string(field: str, value: Any, *, allow_empty: bool = False,
           maximum: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise FieldError(field, "must be a string")
    if not value and not allow_empty:
        raise FieldError(field, "may not be empty")
    if len(value) > maximum:
        raise FieldError(field, f"at most {maximum} characters")
    if _UNSAFE.search(value):
        raise FieldError(field, "may not contain control characters")
    return value


def items(field: str, value: Any, kind: type) -> list[Any]:
    if not isinstance(value, list):
        raise FieldError(field, "must be a list")
    if len(value) > MAX_ITEMS:
        raise FieldError(field, f"at most {MAX_ITEMS} items")
    for index, item in enumerate(value):
        if not isinstance(item, kind):
            raise FieldError(f"{field}[{index}]", f"must be a {_kind_name(kind)}")
    return value


def mapping(field: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FieldError(field, "must be a JSON object")
    return value


def _kind_name(kind: type) -> str:
    names: dict[type, str] = {str: "string", dict: "JSON object"}
    return names.get(kind, kind.__name__)


def https_certificate(value: Any) -> str:
    """The bound certificate's id ("" none); the console's section checks it exists."""
    return string("https_certificate", value, allow_empty=True, maximum=64)


def token_secret(value: Any) -> str:
    if value is None:
        return ""
    return string("token_secret", value, maximum=128)


def separator(value: object) -> str:
    if not isinstance(value, str) or value not in SEPARATORS:
        raise FieldError("separator", f"must be one of {', '.join(SEPARATORS)}")
    return value


def versions(value: Any) -> dict[str, str]:
    found = mapping("versions", value)
    if len(found) > MAX_ITEMS:
        raise FieldError("versions", f"at most {MAX_ITEMS} versions")
    cleaned: dict[str, str] = {}
    for name, steps in found.items():
        field = f"versions.{name}"
        if not _VERSION_NAME.fullmatch(name):
            raise FieldError(field, "a version name is 1 to 64 of A-Z a-z 0-9 _ -")
        text = string(field, steps)
        if not text.startswith("/"):
            raise FieldError(field, "must be URL parameters such as /fw/300/format/webp")
        try:
            imageparams.parse(text)
        except imageparams.ImageParamError as error:
            raise FieldError(field, str(error)) from None
        cleaned[name] = text
    return cleaned


def rules(value: Any) -> list[dict[str, Any]]:
    """Ordered `{pattern, rule, break, state, test_addresses}`. `state` is enabled, off or test
    (the public page), test by default (a new rule is in test, per the spec); a rule in test
    applies to requests from `test_addresses` (addresses or networks, at most 20) and to those
    with the preview header. The older `debug` is still read (true: test, false: enabled) and
    is stored as the state. Syntax errors are not refused: the edge runs a set with a broken
    rule as the spec says (that rule stops), and the back-office lints before publishing."""
    cleaned = []
    for index, item in enumerate(items("rules", value, dict)):
        field = f"rules[{index}]"
        unknown = sorted(set(item) - set(RULE_KEYS))
        if unknown:
            raise FieldError(f"{field}.{unknown[0]}", f"is not a rule field; known: "
                                                      f"{', '.join(RULE_KEYS)}")
        if "rule" not in item:
            raise FieldError(f"{field}.rule", "is required")
        cleaned.append({
            "pattern": string(f"{field}.pattern", item.get("pattern", ""), allow_empty=True),
            "rule": string(f"{field}.rule", item["rule"], allow_empty=True),
            "break": boolean(f"{field}.break", item.get("break", False)),
            "state": rule_state(field, item),
            "test_addresses": test_addresses(f"{field}.test_addresses",
                                             item.get("test_addresses", [])),
        })
    return cleaned


def rule_state(field: str, item: dict[str, Any]) -> str:
    debug = boolean(f"{field}.debug", item["debug"]) if "debug" in item else None
    if "state" not in item:
        return "enabled" if debug is False else "test"
    state = item["state"]
    if state not in RULE_STATES:
        raise FieldError(f"{field}.state", f"must be one of {', '.join(RULE_STATES)}")
    if debug is not None and debug != (state == "test"):
        raise FieldError(f"{field}.debug", f"contradicts state {state!r}; send state alone")
    return str(state)


def test_addresses(field: str, value: Any) -> list[str]:
    entries = items(field, value, str)
    if len(entries) > MAX_TEST_ADDRESSES:
        raise FieldError(field, f"at most {MAX_TEST_ADDRESSES} addresses")
    cleaned = []
    for index, entry in enumerate(entries):
        try:
            network = ipaddress.ip_network(entry.strip(), strict=False)
        except ValueError:
            raise FieldError(f"{field}[{index}]",
                             f"{entry!r} is not an IP address or CIDR network") from None
        single = network.num_addresses == 1 and "/" not in entry
        cleaned.append(str(network.network_address) if single else str(network))
    return cleaned


def cors(value: Any) -> dict[str, str]:
    canonical = {name.lower(): name for name in CORS_HEADERS}
    cleaned: dict[str, str] = {}
    for name, header_value in mapping("cors", value).items():
        field = f"cors.{name}"
        known = canonical.get(name.lower())
        if known is None:
            raise FieldError(field, f"is not a CORS header the edge controls; known: "
                                    f"{', '.join(CORS_HEADERS)}")
        if known == "Access-Control-Max-Age":
            cleaned[known] = _max_age(field, header_value)
        else:
            cleaned[known] = string(field, header_value, maximum=1024)
    return cleaned


def _max_age(field: str, value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return str(int(value))
    raise FieldError(field, "must be a whole number of seconds, 0 or more")


def referer(value: Any) -> dict[str, Any]:
    found = mapping("referer", value)
    unknown = sorted(set(found) - {"mode", "domains", "deny_empty"})
    if unknown:
        raise FieldError(f"referer.{unknown[0]}", "is not a referer field; known: mode, "
                                                  "domains, deny_empty")
    if found.get("mode") not in REFERER_MODES:
        raise FieldError("referer.mode", f"must be one of {', '.join(REFERER_MODES)}")
    return {
        "mode": found["mode"],
        "domains": host_patterns("referer.domains", found.get("domains", [])),
        "deny_empty": boolean("referer.deny_empty", found.get("deny_empty", False)),
    }


def domain_list(field: str, value: Any) -> list[str]:
    cleaned = []
    for index, entry in enumerate(items(field, value, str)):
        domain = entry.strip().lower().rstrip(".")
        if not _DOMAIN.fullmatch(domain) or len(domain) > 253:
            raise FieldError(f"{field}[{index}]", f"{entry!r} is not a domain name "
                                                  "(e.g. example.com or *.example.com)")
        cleaned.append(domain)
    return cleaned


def host_patterns(field: str, value: Any) -> list[str]:
    cleaned = []
    for index, entry in enumerate(items(field, value, str)):
        pattern = entry.strip().lower().rstrip(".")
        if not _HOST_PATTERN.fullmatch(pattern) or len(pattern) > 253 or "**" in pattern:
            raise FieldError(f"{field}[{index}]", f"{entry!r} is not a host pattern (letters, "
                                                  "digits, '-', '.' and '*' for any run, e.g. "
                                                  "example.com, *.example.com or *example.com)")
        cleaned.append(pattern)
    return cleaned


def domains(value: Any) -> list[str]:
    cleaned = domain_list("domains", value)
    for index, domain in enumerate(cleaned):
        if domain.startswith("*."):
            raise FieldError(f"domains[{index}]", "the edge's domain names take no wildcard")
    return cleaned


def ip_blacklist(value: Any) -> list[str]:
    cleaned = []
    for index, entry in enumerate(items("ip_blacklist", value, str)):
        try:
            network = ipaddress.ip_network(entry.strip(), strict=False)
        except ValueError:
            raise FieldError(f"ip_blacklist[{index}]",
                             f"{entry!r} is not an IP address or CIDR network") from None
        single = network.num_addresses == 1 and "/" not in entry
        cleaned.append(str(network.network_address) if single else str(network))
    return cleaned


def ua_whitelist(value: Any) -> list[str]:
    cleaned = []
    for index, entry in enumerate(items("ua_whitelist", value, str)):
        field = f"ua_whitelist[{index}]"
        text = string(field, entry, maximum=1024)
        try:
            access.agent_pattern(text)
        except re.error as error:
            raise FieldError(field, f"not a valid regular expression ({error})") from None
        cleaned.append(text)
    return cleaned


def whole_number(field: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FieldError(field, f"must be a whole number from {low} to {high}")
    return int(value)


def max_body_mb(value: Any) -> int:
    """The request size limit of an own-origin domain, in MB (1 MB = 1048576 bytes)."""
    return whole_number("max_body_mb", value, body_limit.MIN_MB, body_limit.MAX_MB)


def ip_limit_rules(value: Any) -> list[dict[str, Any]]:
    """`[{pattern, count, action, seconds}]`: a path pattern starting with `/` (`*` any run),
    a count per address per 60 s (1..100000), then `ban` for at least 60 s or `delay` of 1..30
    s (ip_limits.py)."""
    found = items("ip_limits", value, dict)
    if len(found) > ip_limits.MAX_RULES:
        raise FieldError("ip_limits", f"at most {ip_limits.MAX_RULES} rules")
    cleaned = []
    for index, item in enumerate(found):
        field = f"ip_limits[{index}]"
        unknown = sorted(set(item) - set(LIMIT_KEYS))
        if unknown:
            raise FieldError(f"{field}.{unknown[0]}", f"is not a rule field; known: "
                                                      f"{', '.join(LIMIT_KEYS)}")
        pattern = string(f"{field}.pattern", item.get("pattern"), maximum=1024)
        if not pattern.startswith("/"):
            raise FieldError(f"{field}.pattern", "must start with / (a path; * is any run)")
        count = whole_number(f"{field}.count", item.get("count"), 1, ip_limits.MAX_COUNT)
        action = item.get("action")
        if action not in ip_limits.ACTIONS:
            raise FieldError(f"{field}.action", f"must be one of {', '.join(ip_limits.ACTIONS)}")
        low, high = ((ip_limits.MIN_BAN_SECONDS, ip_limits.MAX_BAN_SECONDS) if action == "ban"
                     else (1, ip_limits.MAX_DELAY_SECONDS))
        seconds = whole_number(f"{field}.seconds", item.get("seconds"), low, high)
        cleaned.append({"pattern": pattern, "count": count, "action": action,
                        "seconds": seconds})
    return cleaned
