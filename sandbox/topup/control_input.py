"""Validation of the control API's JSON: every bad field is a FieldError naming it (400)."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from sandbox.core.json_types import JSONObject
from sandbox.core.jsonapi import FieldError, choice, number, text
from sandbox.topup import carriers
from sandbox.topup.models import DEFAULT_LATE_CALLBACK_S, Rule
from sandbox.topup.money import fen_from_yuan

SETTING_FIELDS = ("callback_url", "balance", "failure_rate", "progress_delay_s", "whitelist")
RULE_FIELDS = ("mobile", "outcome", "fail_code", "charge_code", "callback", "callback_delay_s")
MAX_BALANCE_YUAN = 1_000_000_000
MAX_DELAY_S = 30 * 24 * 3600


def reject_unknown(body: JSONObject, known: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(body) - set(known))
    if unknown:
        raise FieldError(unknown[0], f"is not a {what} field; known: {', '.join(known)}")


def callback_url(body: JSONObject) -> str | None:
    url = text(body, "callback_url")
    if not url:
        return url  # None: unchanged; "": no callback address
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FieldError("callback_url", "must be an http:// or https:// URL with a host")
    return url


def balance_fen(body: JSONObject) -> int | None:
    value = number(body, "balance", minimum=0, maximum=MAX_BALANCE_YUAN)
    if value is None:
        return None
    try:
        return fen_from_yuan(value)
    except ValueError:
        raise FieldError("balance", "yuan with at most two decimals") from None


def whitelist(body: JSONObject) -> list[str] | None:
    if body.get("whitelist") is None:
        return None
    entries = body["whitelist"]
    if not isinstance(entries, list):
        raise FieldError("whitelist", "must be a list of IP addresses")
    cleaned = []
    for index, entry in enumerate(entries):
        try:
            if not isinstance(entry, str):
                raise ValueError(entry)  # ip_address() would take 1 for 0.0.0.1
            cleaned.append(str(ipaddress.ip_address(entry)))
        except ValueError:
            raise FieldError("whitelist", f"item {index} ({entry!r}) is not an IP address") \
                from None
    return cleaned


def settings_changes(body: JSONObject) -> JSONObject:
    """The settings to change (absent fields keep their value)."""
    reject_unknown(body, SETTING_FIELDS, "top-up settings")
    changes = {
        "callback_url": callback_url(body),
        "balance_fen": balance_fen(body),
        "failure_rate": number(body, "failure_rate", minimum=0, maximum=1),
        "progress_delay_s": number(body, "progress_delay_s", minimum=0, maximum=MAX_DELAY_S),
        "whitelist": whitelist(body),
    }
    return {name: value for name, value in changes.items() if value is not None}


def rule_from(body: JSONObject) -> Rule:
    reject_unknown(body, RULE_FIELDS, "rule")
    raw_mobile = text(body, "mobile", required=True) or ""
    mobile = carriers.normalise(raw_mobile)
    if mobile is None:
        raise FieldError("mobile", "must be one mainland mobile number of 11 digits")
    outcome = choice(body, "outcome", tuple(Rule.Outcome.values), default=Rule.Outcome.AUTO)
    fail_code = choice(body, "fail_code", ("430", "530"), default="530")
    if "fail_code" in body and outcome != Rule.Outcome.FAIL:
        raise FieldError("fail_code", "only with outcome fail")
    charge_code = choice(body, "charge_code", ("200", "410", "511"), default="200")
    callback = choice(body, "callback", tuple(Rule.Callback.values),
                      default=Rule.Callback.NORMAL)
    delay = number(body, "callback_delay_s", minimum=0, maximum=MAX_DELAY_S)
    if delay is not None and callback != Rule.Callback.LATE:
        raise FieldError("callback_delay_s", "only with callback late")
    if callback == Rule.Callback.LATE and delay is None:
        delay = DEFAULT_LATE_CALLBACK_S
    return Rule(mobile=mobile, outcome=outcome, fail_code=fail_code, charge_code=charge_code,
                callback=callback, callback_delay_s=delay or 0.0)
