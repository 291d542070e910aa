"""Pure rules of the SMS service (spec part A and DECISIONS "SMS"): numbers, signatures,
template text, variables, billing units and the delivered text. No Django, no state."""

from __future__ import annotations

import math
import re
from datetime import UTC, date, datetime, timedelta, timezone

MAX_NUMBERS_PER_CALL = 1000
TITLE_MAX_EXCLUSIVE = 12  # "fewer than 12 characters"
SIGN_MIN, SIGN_MAX = 3, 8
TEMPLATE_LENGTH_LIMIT = 348  # refused when len(temp_sign) + len(content) >= 348
SIGN_BRACKETS = 2  # 【】 around the signature count as characters
MAX_MESSAGE_LENGTH = 350
SINGLE_UNIT_LENGTH = 70
MULTI_UNIT_LENGTH = 67
TEMPLATES_PER_CHANNEL = 40
SIGNATURES_PER_CHANNEL = 20
INDUSTRY_PER_NUMBER_PER_DAY = 10
FORBIDDEN_BODY_CHARACTERS = "【】<>"
UNSUBSCRIBE_ENDINGS = ("退订回T", "退订回TD", "退订回N")
# Shanghai has kept UTC+8 without daylight saving since 1991; a fixed offset needs no tzdata.
SHANGHAI = timezone(timedelta(hours=8), "Asia/Shanghai")

_MOBILE = re.compile(r"(?:\+?86)?(1[3-9]\d{9})")
_VARIABLE = re.compile(r"\{\$var([1-9]\d*)\}")
_PLACEHOLDER = re.compile(r"\{\$[^{}]*\}")


def national_mobile(entry: str) -> str | None:
    """The 11-digit number of a mainland mobile entry (`+86`/`86` prefix allowed), else None."""
    match = _MOBILE.fullmatch(entry)
    return match.group(1) if match else None


def signature_problem(sign: str) -> str | None:
    """Why a signature is refused, or None. Letters and digits of any script only, since the
    service adds the brackets itself and "no special symbols" rules out the rest."""
    if not SIGN_MIN <= len(sign) <= SIGN_MAX:
        return f"temp_sign has {len(sign)} characters; {SIGN_MIN} to {SIGN_MAX} are allowed"
    bad = sorted({character for character in sign if not character.isalnum()})
    if bad:
        return f"temp_sign may hold letters and digits only, not {' '.join(bad)}"
    return None


def bad_placeholders(content: str) -> list[str]:
    """`{$...}` placeholders that are not variables written `{$var1}`, `{$var2}`, ..."""
    return [found for found in _PLACEHOLDER.findall(content) if not _VARIABLE.fullmatch(found)]


def forbidden_characters(content: str) -> list[str]:
    return [character for character in FORBIDDEN_BODY_CHARACTERS if character in content]


def is_only_variables(content: str) -> bool:
    """True when no fixed text remains once the variables and blanks are taken out."""
    return not _VARIABLE.sub("", content).strip()


def variables_needed(content: str) -> int:
    """How many `|`-separated values a send must carry: the highest variable number used."""
    return max((int(number) for number in _VARIABLE.findall(content)), default=0)


def split_vars(raw: str | None) -> list[str]:
    return raw.split("|") if raw else []


def render(content: str, values: list[str]) -> str:
    """Fill `{$varN}` with the N-th value (1-based); the caller checks there are enough."""
    return _VARIABLE.sub(lambda match: values[int(match.group(1)) - 1], content)


def billed_length(rendered: str, sign: str) -> int:
    return len(rendered) + len(sign) + SIGN_BRACKETS


def units(length: int) -> int:
    """Billing units of a message of `length` characters (signature and brackets included)."""
    if length <= SINGLE_UNIT_LENGTH:
        return 1
    return math.ceil(length / MULTI_UNIT_LENGTH)


def has_unsubscribe_wording(content: str) -> bool:
    return content.rstrip().endswith(UNSUBSCRIBE_ENDINGS)


def delivered_text(rendered: str, sign: str, sign_location: str) -> str:
    wrapped = f"【{sign}】"
    return wrapped + rendered if sign_location == "top" else rendered + wrapped


def utc_datetime(seconds: float) -> datetime:
    """A sandbox-clock instant (unix seconds) as an aware UTC datetime."""
    return datetime.fromtimestamp(seconds, tz=UTC)


def shanghai_day(moment: datetime) -> date:
    return moment.astimezone(SHANGHAI).date()


def iso_millis(moment: datetime | None) -> str | None:
    """ISO 8601 UTC with milliseconds, e.g. 2017-04-07T08:47:37.000Z."""
    if moment is None:
        return None
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
