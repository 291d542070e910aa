"""A domain's edge configuration as the console's sections (docs/decisions.md, "Services,
domains and the console API"), built from its settings, versions and a rule set.

| section   | value                                                  | from                     |
|-----------|--------------------------------------------------------|--------------------------|
| token     | {"enabled", "secret"} (secret left out when not set)   | token protection, secret |
| separator | "!", "-" or "_"                                        | separator                |
| versions  | {name: processing}                                     | image versions           |
| rewrite   | [{"pattern", "rule", "break", "state",                 | the rule set             |
|           |   "test_addresses"}]                                   |                          |
| cors      | {header: value}                                        | the five CORS fields     |
| referer   | {"mode", "domains", "deny_empty"}                      | the Referer check        |
| ip_ban    | [address or network]                                   | IP blacklist             |
| ua        | [pattern, `*` any run]                                 | User-Agent whitelist     |
| https     | {"access", "force", "certificate_id"} (id null: none)  | the HTTPS page           |
| optimise  | {"html_minify", "combine", "param_follow"}             | the three flags          |
| region    | {"mode": "off"/"allow"/"block", "regions": [code]}     | region restriction       |
| origin_auth | {"url" ("" = off), "timeout" 1..10 s,                | origin authentication    |
|           |   "timeout_refuses"}                                   |                          |
| external_links | {"enabled"}                                       | the external-links switch|
| waf       | {"enabled"}                        (own origin only)   | security: WAF            |
| body_limit| {"max_mb"}                         (own origin only)   | security: size limit     |
| ip_limits | [{"pattern", "count", "action", "seconds"}] (own only) | security: IP limit rules |

The last three (security.py) are built only for a domain of a CDN service (own origin): a
storage domain's publish leaves them out, and the console would refuse them.
"""

from __future__ import annotations

from collections.abc import Iterable

from delivery.access_rules import parse_regions
from delivery.models import DeliverySettings, ImageVersion, RuleSet, SecuritySettings
from delivery.refusals import agent_pattern
from delivery.services.security import security_sections
from providerkit.json_types import JSONObject, JSONValue

SECTIONS = ("token", "separator", "versions", "rewrite", "cors", "referer", "ip_ban", "ua",
            "https", "optimise", "region", "origin_auth", "external_links", "waf", "body_limit",
            "ip_limits")
OWN_ORIGIN_SECTIONS = ("waf", "body_limit", "ip_limits")  # not sent for a storage domain
TOKEN = "token"
SECRET_KEY = "secret"
SECRET_MASK = "********"
CORS_FIELDS: tuple[tuple[str, str], ...] = (
    ("Access-Control-Allow-Origin", "cors_allow_origin"),
    ("Access-Control-Allow-Methods", "cors_allow_methods"),
    ("Access-Control-Allow-Headers", "cors_allow_headers"),
    ("Access-Control-Expose-Headers", "cors_expose_headers"),
    ("Access-Control-Max-Age", "cors_max_age"),
)


def lines(text: str) -> list[str]:
    """Non-empty, stripped lines of a text field, in order, without repeats."""
    return list(dict.fromkeys(line.strip() for line in text.splitlines() if line.strip()))


def cors_headers(row: DeliverySettings) -> dict[str, str]:
    """Only the headers given a value: an empty one is not sent at all."""
    return {header: getattr(row, name).strip() for header, name in CORS_FIELDS
            if getattr(row, name).strip()}


def build_sections(row: DeliverySettings, versions: Iterable[ImageVersion],
                   rule_set: RuleSet | None, secret: str,
                   security: SecuritySettings | None = None) -> dict[str, JSONValue]:
    """Every section, in the console's order. Without a rule set the rewrite section is an
    empty list: what is published is exactly what the page showed, never a leftover of an
    earlier publish. An empty `secret` is left out (the console keeps what it holds). The
    security sections come with `security` (an own-origin domain's) only."""
    token: JSONObject = {"enabled": row.token_protection}
    if secret:
        token[SECRET_KEY] = secret
    return {
        TOKEN: token,
        "separator": row.separator,
        "versions": {version.name: version.params for version in versions},
        "rewrite": [*rule_set.specs()] if rule_set is not None else [],
        "cors": {**cors_headers(row)},
        "referer": {
            "mode": row.referer_mode,
            "domains": [*lines(row.referer_domains)],
            "deny_empty": not row.referer_allow_empty,
        },
        "ip_ban": [*lines(row.ip_blacklist)],
        "ua": [agent_pattern(entry) for entry in lines(row.ua_whitelist)],
        "https": {"access": row.https_access, "force": row.force_https,
                  "certificate_id": (row.https_certificate.certificate_id
                                     if row.https_certificate is not None else None)},
        "optimise": {"html_minify": row.html_minify, "combine": row.combine_js_css,
                     "param_follow": row.param_follow},
        "region": {"mode": row.region_mode, "regions": [*parse_regions(row.regions)[0]]},
        "origin_auth": {"url": row.origin_auth_url.strip(), "timeout": row.origin_auth_timeout,
                        "timeout_refuses": row.origin_auth_timeout_refuses},
        "external_links": {"enabled": row.external_links},
        **(security_sections(security) if security is not None else {}),
    }


def masked(sections: JSONObject) -> JSONObject:
    """The sections as they may be stored or shown: the secret replaced by a mask."""
    copy = dict(sections)
    token = copy.get(TOKEN)
    if isinstance(token, dict) and token.get(SECRET_KEY):
        copy[TOKEN] = {**token, SECRET_KEY: SECRET_MASK}
    return copy


def unmasked(sections: JSONObject, secret: str) -> JSONObject:
    """Stored sections ready to send again: the mask replaced by the domain's secret now."""
    copy = dict(sections)
    token = copy.get(TOKEN)
    if isinstance(token, dict) and token.get(SECRET_KEY) == SECRET_MASK:
        copy[TOKEN] = {**token, SECRET_KEY: secret} if secret else {
            key: value for key, value in token.items() if key != SECRET_KEY}
    return copy


def changed_sections(sections: JSONObject, previous: JSONObject | None) -> list[str]:
    """The sections whose (masked) value differs from `previous`, all of them without one."""
    if previous is None:
        return [name for name in SECTIONS if name in sections]
    return [name for name in SECTIONS if name in sections
            and sections[name] != previous.get(name)]
