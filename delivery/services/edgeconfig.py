"""The edge configuration JSON, built from the settings, versions and a rule set.

Shape (the sandbox's `POST /delivery/config`; keys left out keep their value on the edge):
`token_protection` bool, `token_secret`, `separator`, `versions` {name: "/fw/300/..."},
`rules` [{pattern, rule, break, debug}], `cors` {header: value}, `referer` {mode, domains,
deny_empty}, `ip_blacklist` [...], `ua_whitelist` [...], `force_https`, `html_minify`,
`combine`, `param_follow`.
"""

from __future__ import annotations

from collections.abc import Iterable

from delivery.models import DeliverySettings, ImageVersion, RuleSet
from providerkit.json_types import JSONObject

SECRET_KEY = "token_secret"
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


def settings_config(row: DeliverySettings, versions: Iterable[ImageVersion],
                    secret: str) -> JSONObject:
    return {
        "token_protection": row.token_protection,
        SECRET_KEY: secret,
        "separator": row.separator,
        "versions": {version.name: version.params for version in versions},
        "cors": {**cors_headers(row)},
        "referer": {
            "mode": row.referer_mode,
            "domains": [*lines(row.referer_domains)],
            "deny_empty": not row.referer_allow_empty,
        },
        "ip_blacklist": [*lines(row.ip_blacklist)],
        "ua_whitelist": [*lines(row.ua_whitelist)],
        "force_https": row.force_https,
        "html_minify": row.html_minify,
        "combine": row.combine_js_css,
        "param_follow": row.param_follow,
    }


def build_config(row: DeliverySettings, versions: Iterable[ImageVersion],
                 rule_set: RuleSet | None, secret: str) -> JSONObject:
    """The whole configuration. Without a rule set the edge gets an empty rule list: what is
    published is exactly what the page showed, never a leftover of an earlier publish."""
    config = settings_config(row, versions, secret)
    config["rules"] = [*rule_set.specs()] if rule_set is not None else []
    return config


def masked(config: JSONObject) -> JSONObject:
    """The configuration as it may be stored or shown: the secret replaced by a mask."""
    copy = dict(config)
    if copy.get(SECRET_KEY):
        copy[SECRET_KEY] = SECRET_MASK
    return copy
