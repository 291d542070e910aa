"""The console's domain settings, one section per panel, mapped onto the edge's keys (the same
keys `POST /delivery/config` takes, validated by the same `config_input`).

| section    | value                                         | edge keys                      |
|------------|-----------------------------------------------|--------------------------------|
| token      | {"enabled", "secret"} (answered "****")       | token_protection, token_secret |
| separator  | "!", "-" or "_"                               | separator                      |
| versions   | {name: processing}                            | versions                       |
| rewrite    | [{"pattern", "rule", "break", "state",        | rules                          |
|            |   "test_addresses"}] (`debug` still read)     |                                |
| cors       | {header: value}                               | cors                           |
| referer    | {"mode", "domains", "deny_empty"}             | referer                        |
| ip_ban     | [address, `*` octets or network], at most 100 | ip_blacklist (networks)        |
| ua         | [pattern with `*`], at most 50                | ua_whitelist (as /regex/)      |
| https      | {"access", "force", "certificate_id"} (access | https_access, force_https,     |
|            |   and certificate_id may be left out: kept)   | https_certificate              |
| optimise   | {"html_minify", "combine", "param_follow"}    | the three flags                |
| region     | {"mode": off/allow/block, "regions": [CN...]} | region (region.py)             |
| origin_auth| {"url", "timeout" 1..10, "timeout_refuses"}   | origin_auth (origin_auth.py)   |
| external_links | {"enabled"}                               | external_links                 |
| waf        | {"enabled"} (own origin only)                 | waf                            |
| body_limit | {"max_mb"}: 1..10240 (own origin only)        | max_body_mb                    |
| ip_limits  | [{"pattern", "count", "action": ban|delay,    | ip_limits                      |
|            |   "seconds"}] (own origin only)               |                                |

The last three are the security panel of own-origin domains: for a domain of a storage
service they are refused (10400 naming `section`), so nothing says it is protected when it is
not.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Any

from sandbox.consoleapi import https
from sandbox.consoleapi.errors import bad_field
from sandbox.core.jsonapi import FieldError
from sandbox.delivery import config_input

SECTIONS = ("token", "separator", "versions", "rewrite", "cors", "referer", "ip_ban", "ua",
            "https", "optimise", "region", "origin_auth", "external_links", "waf", "body_limit",
            "ip_limits")
OWN_ORIGIN_ONLY = ("waf", "body_limit", "ip_limits")
MAX_IP_BAN = 100
MAX_UA = 50
MASK = "****"
OPTIMISE_KEYS = ("html_minify", "combine", "param_follow")
_PRINTABLE = re.compile(r"[\x21-\x7e]{1,64}")


def changes(section: str, value: Any, domain: str = "") -> dict[str, Any]:
    """The edge keys for `value` of `section` of `domain`, validated; a bad value is a 10400
    naming `value` (or the part of it that is wrong)."""
    readers: dict[str, Callable[[Any], dict[str, Any]]] = {
        "token": _token, "separator": lambda v: {"separator": v},
        "versions": lambda v: {"versions": v}, "rewrite": lambda v: {"rules": v},
        "cors": lambda v: {"cors": v}, "referer": lambda v: {"referer": v},
        "ip_ban": _ip_ban, "ua": _ua, "https": lambda v: https.changes(v, domain),
        "optimise": _optimise,
        "region": lambda v: {"region": v}, "origin_auth": lambda v: {"origin_auth": v},
        "external_links": _external_links,
        "waf": lambda v: {"waf": _flag(_object(v, ("enabled",)), "enabled")},
        "body_limit": _body_limit, "ip_limits": lambda v: {"ip_limits": v},
    }
    if section not in readers:
        raise bad_field("section", f"must be one of {', '.join(SECTIONS)}")
    keys = readers[section](value)
    try:
        return config_input.changes_from(keys)
    except FieldError as error:
        raise bad_field("value", f"{error.field}: {error.message}") from None


def answer(data: dict[str, Any], own_origin: bool = True) -> dict[str, Any]:
    """Every section's value from the edge's settings (the token's secret masked); a storage
    domain has no security sections."""
    every = {
        "token": {"enabled": bool(data["token_protection"]), "secret": MASK},
        "separator": data["separator"], "versions": data["versions"],
        "rewrite": data["rules"], "cors": data["cors"], "referer": data["referer"],
        "ip_ban": [_ban_entry(entry) for entry in data["ip_blacklist"]],
        "ua": [_ua_entry(entry) for entry in data["ua_whitelist"]],
        "https": https.answer(data),
        "optimise": {key: bool(data[key]) for key in OPTIMISE_KEYS},
        "region": data["region"], "origin_auth": data["origin_auth"],
        "external_links": {"enabled": bool(data["external_links"])},
        "waf": {"enabled": bool(data["waf"])},
        "body_limit": {"max_mb": data["max_body_mb"]},
        "ip_limits": data["ip_limits"],
    }
    return {name: value for name, value in every.items()
            if own_origin or name not in OWN_ORIGIN_ONLY}


def refuse_for_storage(section: str, own_origin: bool) -> None:
    """The security sections exist only for a domain of an own-origin (cdn) service."""
    if section in OWN_ORIGIN_ONLY and not own_origin:
        raise bad_field("section", f"{section} applies to domains of a CDN service (own "
                                   "origin) only")


def _body_limit(value: Any) -> dict[str, Any]:
    found = _object(value, ("max_mb",))
    if "max_mb" not in found:
        raise bad_field("value.max_mb", "is required")
    return {"max_body_mb": found["max_mb"]}


def _object(value: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad_field("value", "must be a JSON object")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise bad_field(f"value.{unknown[0]}", f"is not known here; known: {', '.join(keys)}")
    return value


def _flag(value: dict[str, Any], key: str) -> bool:
    if not isinstance(value.get(key), bool):
        raise bad_field(f"value.{key}", "must be true or false")
    return bool(value[key])


def _token(value: Any) -> dict[str, Any]:
    found = _object(value, ("enabled", "secret"))
    enabled = _flag(found, "enabled")
    keys: dict[str, Any] = {"token_protection": enabled}
    secret = found.get("secret")
    if secret is None or secret == MASK:  # left out, or the masked answer sent back
        if enabled and secret is None:
            raise bad_field("value.secret", "is required when the token is enabled")
        return keys
    if not isinstance(secret, str) or not _PRINTABLE.fullmatch(secret):
        raise bad_field("value.secret", "must be 1-64 printable characters, no spaces")
    keys["token_secret"] = secret
    return keys


def _external_links(value: Any) -> dict[str, Any]:
    return {"external_links": _flag(_object(value, ("enabled",)), "enabled")}


def _optimise(value: Any) -> dict[str, Any]:
    found = _object(value, OPTIMISE_KEYS)
    return {key: _flag(found, key) for key in OPTIMISE_KEYS if key in found}


def _list(value: Any, maximum: int) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise bad_field("value", "must be a list of strings")
    if len(value) > maximum:
        raise bad_field("value", f"at most {maximum} entries")
    return value


def _ip_ban(value: Any) -> dict[str, Any]:
    """`10.11.12.*` bans 10.11.12.0-255 (public docs); addresses and networks as they are."""
    networks = []
    for index, entry in enumerate(_list(value, MAX_IP_BAN)):
        octets = entry.strip().split(".")
        if "*" in entry:
            stars = len(octets) - next((i for i, o in enumerate(octets) if o == "*"), 4)
            fixed = octets[:4 - stars]
            if (len(octets) != 4 or stars == 4 or any(o != "*" for o in octets[4 - stars:])
                    or not all(o.isdigit() and int(o) <= 255 for o in fixed)):
                raise bad_field(f"value[{index}]", f"{entry!r}: `*` stands for whole trailing "
                                                   "octets, as in 10.11.12.*")
            entry = ".".join(fixed + ["0"] * stars) + f"/{32 - 8 * stars}"
        networks.append(entry)
    return {"ip_blacklist": networks}


def _ban_entry(stored: str) -> str:
    network = ipaddress.ip_network(stored, strict=False)
    if network.version == 4 and network.prefixlen in (8, 16, 24) and "/" in stored:
        kept = network.prefixlen // 8
        return ".".join(str(network.network_address).split(".")[:kept] + ["*"] * (4 - kept))
    return stored


def _ua(value: Any) -> dict[str, Any]:
    """A pattern matches the whole User-Agent, case-insensitive, `*` any run of characters."""
    patterns = []
    for index, entry in enumerate(_list(value, MAX_UA)):
        if not entry.strip():
            raise bad_field(f"value[{index}]", "may not be empty")
        patterns.append("/^" + ".*".join(re.escape(part) for part in entry.split("*")) + "$/")
    return {"ua_whitelist": patterns}


def _ua_entry(stored: str) -> str:
    if stored.startswith("/^") and stored.endswith("$/"):
        return "*".join(re.sub(r"\\(.)", r"\1", part) for part in stored[2:-2].split(".*"))
    return stored
