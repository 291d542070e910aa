"""Pure rules of the SMS service: template checks, variables and billing (mobile numbers are
`sms.mobiles`).

Sources: spec/sms-and-topup.md part A and spec/DECISIONS.md section "SMS". Nothing here talks
to the provider or to Django, so the same rules serve the admin forms, the CSV import and the
services layer, and can be tested without a database.

User-facing text: every finding is a `Problem` with a stable `code` (the provider's error code
where the provider has one for exactly that check, otherwise a local code listed below) and an
English default `message`. The Django layer translates by `code` + `params`; the English text
is only a fallback.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

# --- limits (spec "Limits" table and DECISIONS) ---------------------------------------------

TITLE_MAX_LENGTH = 11  # "fewer than 12 characters"
SIGNATURE_MIN_LENGTH = 3
SIGNATURE_MAX_LENGTH = 8
# DECISIONS: refused when len(temp_sign) + len(content) >= 348 (348 + the 2 brackets = 350).
SIGN_AND_CONTENT_LIMIT = 348
# The same rule counted as staff see the text, signature in its brackets: at most 349.
TEMPLATE_MAX_LENGTH = SIGN_AND_CONTENT_LIMIT + 1
SIGN_BRACKETS = ("【", "】")
SINGLE_UNIT_LENGTH = 70
MULTI_UNIT_LENGTH = 67
MAX_BILLED_LENGTH = 350
FORBIDDEN_CONTENT_CHARACTERS = "【】<>"
UNSUBSCRIBE_SUFFIXES = ("退订回T", "退订回TD", "退订回N")
VARS_SEPARATOR = "|"  # the send API joins variable values with it, so no value may hold it
# The console import has columns 2-5 for values (spec "Limits"), and so do our import, send page
# and command: a template using {$var5} could be created but never filled.
MAX_VARIABLES = 4

SIGN_LOCATIONS = ("top", "bottom")
MESSAGE_TYPES = ("industry", "marketing")
REPORT_TYPES = ("vip", "general")

# --- problem codes ---------------------------------------------------------------------------
# Provider codes, used where the provider has a code for exactly this check.
MISSING_PARAMETER = "MISSING_PARAMETER"
ILLEGAL_PARAMER = "ILLEGAL_PARAMER"  # sic: the provider spells it so
ILLEGAL_TITLE = "ILLEGAL_TITLE"
ILLEGAL_SIGNATURE = "ILLEGAL_SIGNATURE"
ILLEGAL_CONTENT_LENGTH = "ILLEGAL_CONTENT_LENGTH"
ILLEGAL_REPORT_TYPE = "ILLEGAL_REPORT_TYPE"
ILLEGAL_MOBILE = "ILLEGAL_MOBILE"
# Local codes: checks the spec states but for which the provider publishes no code.
SIGNATURE_CHARACTERS = "SIGNATURE_CHARACTERS"
FORBIDDEN_CHARACTERS = "FORBIDDEN_CHARACTERS"
ONLY_VARIABLES = "ONLY_VARIABLES"
UNSUBSCRIBE_MISSING = "UNSUBSCRIBE_MISSING"
MISSING_VARIABLE = "MISSING_VARIABLE"
VARIABLE_SEPARATOR = "VARIABLE_SEPARATOR"
NOT_A_VARIABLE = "NOT_A_VARIABLE"
TOO_MANY_VARIABLES = "TOO_MANY_VARIABLES"
MESSAGE_TOO_LONG = "MESSAGE_TOO_LONG"

# `{$var1}`, `{$var2}`, ...; `{$var0}` and `{$var01}` are not variables and stay literal text.
_VARIABLE_RE = re.compile(r"\{\$var([1-9][0-9]*)\}")
# Anything written like a placeholder: the provider refuses `{$name}`, so we name it first.
_PLACEHOLDER_RE = re.compile(r"\{\$[^{}]*\}")


class Severity(StrEnum):
    ERROR = "error"  # the provider refuses it, or the message cannot be delivered correctly
    WARNING = "warning"  # accepted by the provider, but something will go wrong later


@dataclass(frozen=True)
class Problem:
    """One finding about one field. `code` and `params` are stable; `message` is English."""

    field: str
    code: str
    message: str
    severity: Severity = Severity.ERROR
    # `dataclasses.` because the `field` attribute above shadows the function in this body.
    params: Mapping[str, str | int] = dataclasses.field(default_factory=dict)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


def has_errors(problems: Sequence[Problem]) -> bool:
    """True when at least one problem blocks the action (warnings do not)."""
    return any(problem.is_error for problem in problems)


# --- template checks -------------------------------------------------------------------------


@dataclass(frozen=True)
class TemplateDraft:
    """A template as submitted; field names are those of the provider's API.

    An edit (PATCH) is checked as the merged result of the stored template and the changes,
    because the length rule needs the signature and the content together.
    """

    title: str
    temp_sign: str
    content: str
    sign_location: str
    type: str
    report_type: str


def check_template(draft: TemplateDraft) -> list[Problem]:
    """Every problem of a template, in field order; an empty list means it can be submitted."""
    problems: list[Problem] = []
    problems += _check_title(draft.title)
    problems += _check_signature(draft.temp_sign)
    problems += _check_content(draft.content, draft.type)
    problems += _check_sign_and_content_length(draft.temp_sign, draft.content)
    problems += _check_choice("sign_location", draft.sign_location, SIGN_LOCATIONS, ILLEGAL_PARAMER)
    problems += _check_choice("type", draft.type, MESSAGE_TYPES, ILLEGAL_PARAMER)
    problems += _check_choice("report_type", draft.report_type, REPORT_TYPES, ILLEGAL_REPORT_TYPE)
    return problems


def _missing(field_name: str) -> Problem:
    return Problem(
        field=field_name,
        code=MISSING_PARAMETER,
        message=f"The {field_name} is required.",
        params={"field": field_name},
    )


def _is_blank(value: str) -> bool:
    # Whitespace-only input is treated as empty: the provider would either refuse it or
    # deliver a blank, and both are mistakes worth naming.
    return not value.strip()


def _check_title(title: str) -> list[Problem]:
    if _is_blank(title):
        return [_missing("title")]
    if len(title) > TITLE_MAX_LENGTH:
        return [
            Problem(
                field="title",
                code=ILLEGAL_TITLE,
                message=(
                    f"The title must be fewer than {TITLE_MAX_LENGTH + 1} characters "
                    f"(it has {len(title)})."
                ),
                params={"limit": TITLE_MAX_LENGTH + 1, "length": len(title)},
            )
        ]
    return []


def _check_signature(temp_sign: str) -> list[Problem]:
    if _is_blank(temp_sign):
        return [_missing("temp_sign")]
    problems: list[Problem] = []
    if not SIGNATURE_MIN_LENGTH <= len(temp_sign) <= SIGNATURE_MAX_LENGTH:
        problems.append(
            Problem(
                field="temp_sign",
                code=ILLEGAL_SIGNATURE,
                message=(
                    f"The signature must be {SIGNATURE_MIN_LENGTH} to {SIGNATURE_MAX_LENGTH} "
                    f"characters long (it has {len(temp_sign)})."
                ),
                params={
                    "min": SIGNATURE_MIN_LENGTH,
                    "max": SIGNATURE_MAX_LENGTH,
                    "length": len(temp_sign),
                },
            )
        )
    # "No special symbols": only letters and digits of any script (Chinese included). This
    # also refuses brackets, which the provider adds itself, and spaces.
    symbols = _unique(ch for ch in temp_sign if not ch.isalnum())
    if symbols:
        problems.append(
            Problem(
                field="temp_sign",
                code=SIGNATURE_CHARACTERS,
                message=(
                    "The signature may contain only letters and digits, without brackets, "
                    f"spaces or symbols (found: {' '.join(symbols)})."
                ),
                params={"characters": "".join(symbols)},
            )
        )
    return problems


def _check_content(content: str, message_type: str) -> list[Problem]:
    if _is_blank(content):
        return [_missing("content")]
    problems: list[Problem] = []
    forbidden = _unique(ch for ch in content if ch in FORBIDDEN_CONTENT_CHARACTERS)
    if forbidden:
        problems.append(
            Problem(
                field="content",
                code=FORBIDDEN_CHARACTERS,
                message=(
                    "The content must not use the characters 【 】 < > "
                    f"(found: {' '.join(forbidden)})."
                ),
                params={"characters": "".join(forbidden)},
            )
        )
    problems += _check_placeholders(content)
    if _is_blank(_VARIABLE_RE.sub("", content)):
        problems.append(
            Problem(
                field="content",
                code=ONLY_VARIABLES,
                message="The content must contain fixed text, not only variables.",
            )
        )
    # Checked on the template text itself, verbatim (no stripping): the provider decides from
    # the text it stores, and a value filled in at send time cannot be relied upon.
    if message_type == "marketing" and not content.endswith(UNSUBSCRIBE_SUFFIXES):
        problems.append(
            Problem(
                field="content",
                code=UNSUBSCRIBE_MISSING,
                message=(
                    "A marketing template must end with 退订回T, 退订回TD or 退订回N; "
                    "it can be created, but every message sent with it will fail."
                ),
                severity=Severity.WARNING,
                params={"suffixes": " ".join(UNSUBSCRIBE_SUFFIXES)},
            )
        )
    return problems


def _check_placeholders(content: str) -> list[Problem]:
    """`{$...}` that is not `{$var1}` to `{$var4}`: refused by the provider, or never filled."""
    problems: list[Problem] = []
    for found in _unique(_PLACEHOLDER_RE.findall(content)):
        match = _VARIABLE_RE.fullmatch(found)
        if match is None:
            problems.append(Problem(
                field="content", code=NOT_A_VARIABLE,
                message=f"{found} is not a variable: write {{$var1}} to {{$var{MAX_VARIABLES}}}.",
                params={"placeholder": found, "limit": MAX_VARIABLES},
            ))
        elif int(match.group(1)) > MAX_VARIABLES:
            problems.append(Problem(
                field="content", code=TOO_MANY_VARIABLES,
                message=(f"{found}: a template has at most {MAX_VARIABLES} variables, "
                         f"{{$var1}} to {{$var{MAX_VARIABLES}}}."),
                params={"placeholder": found, "limit": MAX_VARIABLES},
            ))
    return problems


def _check_sign_and_content_length(temp_sign: str, content: str) -> list[Problem]:
    total = len(temp_sign) + len(content)
    if total < SIGN_AND_CONTENT_LIMIT:
        return []
    # Counted as the preview counts (brackets included), so the two never name two limits.
    shown = total + len("".join(SIGN_BRACKETS))
    return [
        Problem(
            field="content",
            code=ILLEGAL_CONTENT_LENGTH,
            message=(
                f"With its signature in brackets the template has {shown} characters; at most "
                f"{TEMPLATE_MAX_LENGTH} are allowed."
            ),
            params={"limit": TEMPLATE_MAX_LENGTH, "length": shown},
        )
    ]


def _check_choice(field_name: str, value: str, choices: Sequence[str], code: str) -> list[Problem]:
    if _is_blank(value):
        return [_missing(field_name)]
    if value in choices:
        return []
    return [
        Problem(
            field=field_name,
            code=code,
            message=f"The {field_name} must be one of: {', '.join(choices)} (got {value!r}).",
            params={"value": value, "choices": ", ".join(choices)},
        )
    ]


def _unique(characters: Iterable[str]) -> list[str]:
    """Distinct characters in order of first appearance, for readable messages."""
    return list(dict.fromkeys(characters))


# --- variables and rendering -----------------------------------------------------------------


def extract_variables(content: str) -> list[str]:
    """The variable names a template uses (`var1`, `var3`, ...), each once, by number.

    Values are sent as one `|`-separated list "in template order"; we read that order as the
    variable number (the Nth value fills `{$varN}`), as the console import does with its
    columns 2-5, so the order of appearance in the text does not matter.
    """
    numbers = sorted({int(match.group(1)) for match in _VARIABLE_RE.finditer(content)})
    return [f"var{number}" for number in numbers]


def variable_count(content: str) -> int:
    """How many values a send must supply: the highest variable number used (0 when none)."""
    numbers = [int(match.group(1)) for match in _VARIABLE_RE.finditer(content)]
    return max(numbers, default=0)


@dataclass(frozen=True)
class Rendering:
    """The content with variables filled in, and the variables that had no value."""

    text: str
    missing: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return not self.missing


def render_content(content: str, values: Sequence[str | None]) -> Rendering:
    """Fill `{$varN}` with `values[N-1]`.

    A value that is absent, None or empty counts as missing: the console import writes unused
    columns as empty cells, so an empty cell for a variable the template uses is a data error,
    not an intended blank. Missing variables stay in the text as written. Substitution is one
    pass, so a value that itself looks like `{$var2}` is not expanded again. Extra values are
    ignored (an import row always has four columns).
    """
    missing: list[str] = []

    def fill(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        value = values[index] if index < len(values) else None
        if not value:
            name = f"var{index + 1}"
            if name not in missing:
                missing.append(name)
            return match.group(0)
        return value

    text = _VARIABLE_RE.sub(fill, content)
    missing.sort(key=lambda name: int(name.removeprefix("var")))
    return Rendering(text=text, missing=tuple(missing))


def check_variable_values(values: Sequence[str | None], field_name: str = "vars") -> list[Problem]:
    """Values that cannot be sent: the API separates values with `|`, so none may contain it."""
    problems: list[Problem] = []
    for position, value in enumerate(values, start=1):
        if value and VARS_SEPARATOR in value:
            problems.append(
                Problem(
                    field=field_name,
                    code=VARIABLE_SEPARATOR,
                    message=f"The value of var{position} must not contain the character '|'.",
                    params={"variable": f"var{position}"},
                )
            )
    return problems


def delivered_text(rendered_content: str, temp_sign: str, sign_location: str) -> str:
    """The text the recipient sees: the signature in 【】 at the top or the bottom."""
    signature = f"{SIGN_BRACKETS[0]}{temp_sign}{SIGN_BRACKETS[1]}"
    if sign_location == "top":
        return signature + rendered_content
    if sign_location == "bottom":
        return rendered_content + signature
    raise ValueError(f"sign_location must be 'top' or 'bottom', not {sign_location!r}")


# --- billing ---------------------------------------------------------------------------------


class MessageTooLongError(ValueError):
    """A message above 350 billed characters: the provider refuses it."""

    def __init__(self, length: int) -> None:
        super().__init__(
            f"A message may have at most {MAX_BILLED_LENGTH} characters including the "
            f"signature (this one has {length})."
        )
        self.length = length

    def __reduce__(self) -> tuple[type[MessageTooLongError], tuple[int]]:
        return (type(self), (self.length,))


def billed_length(rendered_content: str, temp_sign: str) -> int:
    """Characters billed for one message: content + signature + its two brackets.

    Every character counts as one, whatever the script (DECISIONS).
    """
    return len(rendered_content) + len(temp_sign) + len(SIGN_BRACKETS)


def billing_units(length: int) -> int:
    """Units charged for a message of `length` billed characters.

    Up to 70: one unit; above 70 the whole message is cut in 67-character units.
    """
    if length < 1:
        raise ValueError(f"a message has at least one character, not {length}")
    if length > MAX_BILLED_LENGTH:
        raise MessageTooLongError(length)
    if length <= SINGLE_UNIT_LENGTH:
        return 1
    return math.ceil(length / MULTI_UNIT_LENGTH)


@dataclass(frozen=True)
class MessagePreview:
    """What one send of a template to one number would deliver and cost.

    `text`, `billed_length` and `units` are None when the message cannot be built (missing
    values) or would be refused (too long); `problems` then says why.
    """

    text: str | None
    billed_length: int | None
    units: int | None
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not has_errors(self.problems)


def preview_message(
    content: str, temp_sign: str, sign_location: str, values: Sequence[str | None] = ()
) -> MessagePreview:
    """Render, wrap and bill one message, reporting problems instead of raising.

    Meant for import rows and the send form, where every bad row must be named, not crash.
    """
    problems = check_variable_values(values)
    rendering = render_content(content, values)
    for name in rendering.missing:
        problems.append(
            Problem(
                field=name,
                code=MISSING_VARIABLE,
                message=f"No value was given for the variable {{${name}}}.",
                params={"variable": name},
            )
        )
    if not rendering.complete:
        return MessagePreview(text=None, billed_length=None, units=None, problems=tuple(problems))
    text = delivered_text(rendering.text, temp_sign, sign_location)
    length = billed_length(rendering.text, temp_sign)
    if length > MAX_BILLED_LENGTH:
        problems.append(
            Problem(
                field="content",
                code=MESSAGE_TOO_LONG,
                message=str(MessageTooLongError(length)),
                params={"limit": MAX_BILLED_LENGTH, "length": length},
            )
        )
        return MessagePreview(text=text, billed_length=length, units=None, problems=tuple(problems))
    return MessagePreview(
        text=text, billed_length=length, units=billing_units(length), problems=tuple(problems)
    )
