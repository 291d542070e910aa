"""Pure rules of mainland China mobile numbers: the accepted forms, the national form, a
prefix for searching, and the carrier of a number.

Source: spec/DECISIONS.md section "SMS". Like `sms.rules`, nothing here talks to the provider
or to Django; a refused number is a `sms.rules.Problem` (code `ILLEGAL_MOBILE`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import phonenumbers
from phonenumbers import carrier as phone_carrier

from providerkit.mobiles import REASONS, MobileRefused, national_mobile
from sms.rules import ILLEGAL_MOBILE, Problem

# Separators people type inside a number; removed before the number is judged.
_MOBILE_SEPARATORS_RE = re.compile(r"[\s\-]+")


class InvalidMobileError(ValueError):
    """A number that is not a mainland China mobile number; `problem` names the reason."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem

    @property
    def code(self) -> str:
        return self.problem.code

    def __reduce__(self) -> tuple[type[InvalidMobileError], tuple[Problem]]:
        return (type(self), (self.problem,))


def _invalid_mobile(raw: str, reason: str, detail: str) -> InvalidMobileError:
    return InvalidMobileError(
        Problem(
            field="mobile",
            code=ILLEGAL_MOBILE,
            message=f"{raw!r} is not a mainland China mobile number: {detail}.",
            params={"value": raw, "reason": reason},
        )
    )


def normalize_mobile(raw: str) -> str:
    """The 11-digit national form of a mainland mobile number, or InvalidMobileError.

    The rule is top-up's too (`providerkit.mobiles`, from DECISIONS): 11 digits matching
    `1[3-9]\\d{9}`, optionally after `+86` or `86`, spaces and hyphens ignored.
    """
    try:
        return national_mobile(raw)
    except MobileRefused as refused:
        raise _invalid_mobile(raw, refused.reason, REASONS[refused.reason]) from None


_MOBILE_PREFIX_RE = re.compile(r"1(?:[3-9]\d{0,8})?", re.ASCII)


def mobile_prefix(raw: str) -> str | None:
    """The first digits of a mainland mobile number (1 to 10 of them, spaces and hyphens
    ignored), or None when `raw` is not the start of any valid number.

    For searches by the start of a number ("138001"); a whole number is normalize_mobile's.
    """
    compact = _MOBILE_SEPARATORS_RE.sub("", raw)
    return compact if _MOBILE_PREFIX_RE.fullmatch(compact) else None


def mobile_problem(raw: str) -> Problem | None:
    """The problem with a number, or None when it is valid (for forms and import rows)."""
    try:
        normalize_mobile(raw)
    except InvalidMobileError as error:
        return error.problem
    return None


@dataclass(frozen=True)
class Carrier:
    """The carrier a number range was allocated to.

    `code` is CMCC, CUCC or CTCC for the three carriers (the same words as the top-up
    product codes), None for any other or unknown carrier. Mobile number portability means
    a ported number may now be served by another carrier: this is an indication only.
    """

    code: str | None
    name_en: str
    name_zh: str

    @property
    def known(self) -> bool:
        return bool(self.name_en)


UNKNOWN_CARRIER = Carrier(code=None, name_en="", name_zh="")
_CARRIER_CODES: Mapping[str, str] = {
    "China Mobile": "CMCC",
    "China Unicom": "CUCC",
    "China Telecom": "CTCC",
}


def carrier_of(mobile: str) -> Carrier:
    """The carrier of a number per the `phonenumbers` prefix data (raises InvalidMobileError).

    Ranges that `phonenumbers` does not hold as valid mobile numbers (IoT 140/149, satellite
    174) come back as UNKNOWN_CARRIER although they pass `normalize_mobile`.
    """
    national = normalize_mobile(mobile)
    number = phonenumbers.parse(f"+86{national}")
    name_en = phone_carrier.name_for_number(number, "en")
    if not name_en:
        return UNKNOWN_CARRIER
    name_zh = phone_carrier.name_for_number(number, "zh", region="CN")
    return Carrier(code=_CARRIER_CODES.get(name_en), name_en=name_en, name_zh=name_zh)
