"""The one rule of a mainland China mobile number, shared by SMS and top-up.

Accepted (spec/DECISIONS.md, "SMS"): 11 digits matching `1[3-9]\\d{9}`, optionally preceded by
`+86` or `86`. Spaces and hyphens between digits are ignored, because numbers are typed and
pasted in groups ("138 0013 8000"). `0086`, full-width digits and other prefixes are refused
rather than guessed at. `phonenumbers` gives the carrier of a range (in each app).

No Django here: a refusal names its reason by code (`MobileRefused.reason`), and each side
words it (the pages through `backoffice.ui.mobile_words`, one sentence for both apps).
"""

from __future__ import annotations

import re

# re.ASCII: `\d` would otherwise accept full-width and other Unicode digits.
_NATIONAL = re.compile(r"1[3-9]\d{9}", re.ASCII)
_SEPARATORS = re.compile(r"[\s\-]+")

# reason code: the English detail for developers' messages
REASONS = {
    "empty": "it is empty",
    "characters": "only the digits 0-9, optionally after +86, are allowed",
    "length": "it does not have 11 digits",
    "prefix": "it must start with 13 to 19",
}


class MobileRefused(ValueError):
    """`raw` is not a mainland mobile number; `reason` is a key of REASONS."""

    def __init__(self, raw: str, reason: str) -> None:
        super().__init__(f"{raw!r} is not a mainland China mobile number: {REASONS[reason]}.")
        self.raw = raw
        self.reason = reason

    def __reduce__(self) -> tuple[type[MobileRefused], tuple[str, str]]:
        return (type(self), (self.raw, self.reason))


def national_mobile(raw: str) -> str:
    """The 11-digit national form of `raw`, or MobileRefused naming why not."""
    compact = _SEPARATORS.sub("", raw)
    if not compact:
        raise MobileRefused(raw, "empty")
    if compact.startswith("+86"):
        national = compact[3:]
    elif compact.startswith("86") and len(compact) == 13:
        national = compact[2:]
    else:
        national = compact
    if national and not (national.isascii() and national.isdigit()):
        raise MobileRefused(raw, "characters")
    if len(national) != 11:
        raise MobileRefused(raw, "length")
    if not _NATIONAL.fullmatch(national):
        raise MobileRefused(raw, "prefix")
    return national
