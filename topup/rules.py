"""Pure rules of the top-up service: order numbers, times, numbers, product codes, answer codes.

Sources: sms-and-topup.md part B and DECISIONS "Top-up". Where the two differ, DECISIONS wins
(notably: `516` on a query is "no such order", its own outcome, not a failure).
No network and no Django here, so every rule can be tested and reused by the sandbox's reader.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from enum import IntEnum, StrEnum
from typing import Self

import phonenumbers
from phonenumbers import carrier as phonenumbers_carrier

from providerkit.mobiles import MobileRefused, national_mobile


class InvalidInput(ValueError):
    """A value we were about to send breaks a rule of the spec; `field` names the culprit."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --- time -------------------------------------------------------------------------------------

# Every wall-clock time of the service is Asia/Shanghai. China has kept UTC+8 without daylight
# saving since 1991, so a fixed offset is exact for any order we place, and needs no tz database.
SHANGHAI = timezone(timedelta(hours=8), "Asia/Shanghai")
REQUESTTIME_FORMAT = "%Y-%m-%d %H:%M:%S"


def to_shanghai(moment: datetime) -> datetime:
    """The same instant on the provider's clock; naive datetimes are refused as ambiguous."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("a naive datetime has no instant; pass an aware datetime")
    return moment.astimezone(SHANGHAI)


def format_requesttime(moment: datetime) -> str:
    """`requesttime` of seekOrder: `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai time."""
    return to_shanghai(moment).strftime(REQUESTTIME_FORMAT)


# --- custno -------------------------------------------------------------------------------------

CUSTNO_MAX_LENGTH = 29  # "shorter than 30"; the provider answers 532 at 30 or more
_CUSTNO_CHARACTERS = re.compile(r"[A-Za-z0-9_-]")
_CUSTNO_SUFFIX_BYTES = 4  # 8 hex characters: 32 random bits per microsecond


def validate_custno(custno: str) -> str:
    """Return `custno` unchanged if the provider will accept it, else raise InvalidInput."""
    if not isinstance(custno, str):
        raise InvalidInput("custno", f"must be a string, got {type(custno).__name__}")
    if not custno:
        raise InvalidInput("custno", "is empty; it needs 1 to 29 characters")
    if len(custno) > CUSTNO_MAX_LENGTH:
        raise InvalidInput(
            "custno", f"is {len(custno)} characters long; at most {CUSTNO_MAX_LENGTH} are accepted"
        )
    bad = sorted({char for char in custno if not _CUSTNO_CHARACTERS.fullmatch(char)})
    if bad:
        raise InvalidInput("custno", f"has characters outside A-Z a-z 0-9 _ -: {''.join(bad)!r}")
    return custno


def new_custno(now: datetime | None = None) -> str:
    """A fresh order number: Shanghai timestamp to the microsecond + 8 random hex characters.

    28 characters, so it sorts by creation time as text and stays under the 30-character limit.
    The random suffix keeps two workers that hit the same microsecond apart; uniqueness is
    finally guaranteed by the database constraint on the stored custno, not by this function.
    """
    moment = to_shanghai(now) if now is not None else datetime.now(SHANGHAI)
    return moment.strftime("%Y%m%d%H%M%S%f") + secrets.token_hex(_CUSTNO_SUFFIX_BYTES)


# --- mobile numbers and carriers -------------------------------------------------------------


class Carrier(StrEnum):
    """The three mainland carriers, spelled as in product codes."""

    CMCC = "CMCC"
    CUCC = "CUCC"
    CTCC = "CTCC"


# Names in phonenumbers' English carrier data. Other names (China Broadnet, blank for
# unallocated ranges) are not carriers this service tops up.
_CARRIER_NAMES = {
    "China Mobile": Carrier.CMCC,
    "China Unicom": Carrier.CUCC,
    "China Telecom": Carrier.CTCC,
}


def normalize_mobile(raw: str) -> str:
    """The 11-digit mainland mobile number in `raw`, which may carry `+86`/`86` and separators.

    The rule is SMS's too (`providerkit.mobiles`): spaces and hyphens are dropped because
    numbers pasted from spreadsheets carry them; anything else (letters, brackets, a second
    number) is refused rather than guessed at.
    """
    if not isinstance(raw, str):
        raise InvalidInput("mobile", f"must be a string, got {type(raw).__name__}")
    try:
        return national_mobile(raw)
    except MobileRefused as refused:
        raise InvalidInput("mobile", str(refused)) from None


def detect_carrier(mobile: str) -> Carrier | None:
    """The carrier that was allocated the number's range, or None when it is not one of three.

    This reads the range allocation; a number moved to another carrier keeps its old range, so
    this is a default for picking a product, not proof.
    """
    number = phonenumbers.parse(normalize_mobile(mobile), "CN")
    return _CARRIER_NAMES.get(phonenumbers_carrier.name_for_number(number, "en"))


# --- products -----------------------------------------------------------------------------------

_PRODUCT_CODE = re.compile(r"(?P<carrier>[A-Z]{4})_(?P<megabytes>[1-9][0-9]{0,6})")


@dataclass(frozen=True)
class Product:
    """A product code read as carrier + megabytes, the form the sandbox offers (`CMCC_10`)."""

    carrier: Carrier
    megabytes: int

    @property
    def code(self) -> str:
        return f"{self.carrier}_{self.megabytes}"


def parse_product_code(code: str) -> Product:
    """`CMCC_10` -> Product(CMCC, 10); raise InvalidInput for anything else.

    The provider's catalogue is unpublished, so this reads our own product list; the client sends
    any non-empty code untouched.
    """
    if not isinstance(code, str):
        raise InvalidInput("prodcode", f"must be a string, got {type(code).__name__}")
    if not code:
        raise InvalidInput("prodcode", "is empty")
    match = _PRODUCT_CODE.fullmatch(code)
    if match is None:
        raise InvalidInput(
            "prodcode", f"{code!r} is not CARRIER_MEGABYTES, e.g. CMCC_10 (1 to 7 digits)"
        )
    try:
        carrier = Carrier(match["carrier"])
    except ValueError:
        raise InvalidInput(
            "prodcode", f"{code!r} names carrier {match['carrier']!r}; expected CMCC, CUCC or CTCC"
        ) from None
    return Product(carrier=carrier, megabytes=int(match["megabytes"]))


def validate_prodcode(code: str) -> str:
    """A prodcode the client may send: a non-empty string without surrounding whitespace."""
    if not isinstance(code, str):
        raise InvalidInput("prodcode", f"must be a string, got {type(code).__name__}")
    if not code or code != code.strip():
        raise InvalidInput("prodcode", f"{code!r} is empty or has surrounding whitespace")
    return code


class ProdTime(IntEnum):
    """`prodtime` of chargeOrder; left out of the request means ALL_TIME."""

    OFF_PEAK = 0
    ALL_TIME = 1


class ProdStandard(IntEnum):
    """`prodstandard` of chargeOrder; left out of the request means ALL_NETWORKS."""

    G2 = 1
    G2_G3 = 3
    ALL_NETWORKS = 7


def parse_prodtime(value: int) -> ProdTime:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput("prodtime", f"must be an integer, got {type(value).__name__}")
    try:
        return ProdTime(value)
    except ValueError:
        raise InvalidInput("prodtime", f"{value} is not 0 (off-peak) or 1 (all-time)") from None


def parse_prodstandard(value: int) -> ProdStandard:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput("prodstandard", f"must be an integer, got {type(value).__name__}")
    try:
        return ProdStandard(value)
    except ValueError:
        raise InvalidInput(
            "prodstandard", f"{value} is not 1 (2g), 3 (2g and 3g) or 7 (all networks)"
        ) from None


# --- answer codes -------------------------------------------------------------------------------


class _DocumentedEnum(StrEnum):
    """A string enum whose members each carry their own docstring (`Member.__doc__`)."""

    def __new__(cls, value: str, doc: str) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.__doc__ = doc
        return member


class ChargeOutcome(_DocumentedEnum):
    """What a chargeOrder answer says about the order (spec Endpoints B, rule 1)."""

    CREATED = "created", "Code 200: the provider created the order; wait for callback or query."
    MUST_QUERY = (
        "must_query",
        "Codes 410 and 511, a timeout or any abnormal answer: the order may or may not exist; "
        "seekOrder decides. Never send chargeOrder again before that.",
    )
    FAILED = (
        "failed",
        "Any other code (e.g. 502, 503, 505, 510, 512): this request created no order.",
    )


class OrderOutcome(_DocumentedEnum):
    """What the `code` of a seekOrder answer or a callback says about an order (DECISIONS)."""

    SUCCESS = "success", "Code 200: topped up. Final."
    FAILED = "failed", "Codes 430 and 530: the top-up failed. Final."
    NO_SUCH_ORDER = (
        "no_such_order",
        "Code 516 on seekOrder only: the provider knows no order with this custno.",
    )
    MANUAL_CONFIRMATION = (
        "manual_confirmation",
        "Code 511: internal exception at the provider; a person must confirm the outcome.",
    )
    IN_PROGRESS = "in_progress", "Code 201 and every other code: not settled yet; ask again later."

    @property
    def is_final(self) -> bool:
        """Only success and failure settle an order; everything else may still change."""
        return self in (OrderOutcome.SUCCESS, OrderOutcome.FAILED)


class Remedy(_DocumentedEnum):
    """What the caller should do about an answer's code before reading anything else into it."""

    NONE = "none", "Nothing special: act on the outcome."
    REFRESH_TOKEN = (
        "refresh_token",
        "Codes 502, 508, 527, 531: the token or sign was refused; refresh the token and retry "
        "the request once. The request was not carried out.",
    )
    BACK_OFF = "back_off", "Code 510: queries too frequent; retry later, spaced out."


SUCCESS_CODE = "200"
CHARGE_MUST_QUERY_CODES = frozenset({"410", "511"})
ORDER_FAILED_CODES = frozenset({"430", "530"})
NO_SUCH_ORDER_CODE = "516"
MANUAL_CONFIRMATION_CODE = "511"
TOKEN_PROBLEM_CODES = frozenset({"502", "508", "527", "531"})
BACK_OFF_CODES = frozenset({"510"})


def _require_code(code: str) -> str:
    # `code` is always a string (DECISIONS); an int 200 must not fall into "anything else".
    if not isinstance(code, str):
        raise TypeError(f"code must be a str, got {type(code).__name__}")
    return code


def classify_charge_code(code: str) -> ChargeOutcome:
    """Outcome of a chargeOrder answer's `code`."""
    if _require_code(code) == SUCCESS_CODE:
        return ChargeOutcome.CREATED
    if code in CHARGE_MUST_QUERY_CODES:
        return ChargeOutcome.MUST_QUERY
    return ChargeOutcome.FAILED


def classify_seek_code(code: str) -> OrderOutcome:
    """Outcome of a seekOrder answer's `code`."""
    if _require_code(code) == NO_SUCH_ORDER_CODE:
        return OrderOutcome.NO_SUCH_ORDER
    return _order_outcome(code)


def classify_callback_code(code: str) -> OrderOutcome:
    """Outcome of a callback's `code`; 516 is a query answer, so here it falls to in progress."""
    return _order_outcome(_require_code(code))


def _order_outcome(code: str) -> OrderOutcome:
    if code == SUCCESS_CODE:
        return OrderOutcome.SUCCESS
    if code in ORDER_FAILED_CODES:
        return OrderOutcome.FAILED
    if code == MANUAL_CONFIRMATION_CODE:
        return OrderOutcome.MANUAL_CONFIRMATION
    return OrderOutcome.IN_PROGRESS


def remedy_for(code: str) -> Remedy:
    """Whether an answer's `code` asks for a token refresh, a pause, or nothing."""
    if _require_code(code) in TOKEN_PROBLEM_CODES:
        return Remedy.REFRESH_TOKEN
    if code in BACK_OFF_CODES:
        return Remedy.BACK_OFF
    return Remedy.NONE
