"""The one sentence both SMS and top-up show for a refused mobile number, in the reader's
language (the rule itself is `providerkit.mobiles`)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

# A message id kept as it is in stored problems (top-up's bulk lines), translated when shown.
NOT_A_MOBILE = gettext_noop("“%(value)s” is not a mainland China mobile number: %(reason)s.")

REASONS: Mapping[str, Promise] = {
    "empty": _("it is empty"),
    "characters": _("only the digits 0-9, optionally after +86, are allowed"),
    "length": _("it does not have 11 digits"),
    "prefix": _("it must start with 13 to 19"),
}


def reason_text(reason: str) -> str:
    return str(REASONS.get(reason, reason))


def not_a_mobile(value: str, reason: str) -> str:
    """The sentence for `value`, refused for `reason` (a `providerkit.mobiles` reason code)."""
    return gettext(NOT_A_MOBILE) % {"value": value, "reason": reason_text(reason)}
