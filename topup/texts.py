"""User-facing wording of top-up's rule problems and provider errors.

`topup.rules` and `topup.client` import no Django and speak English to developers; the pages,
forms, bulk-file report and commands show staff the translated sentences gathered here.

A problem kept for later (a bulk batch's line) is stored as its message id and values, not as
text, so that it reads in each reader's language: those message ids are marked with
`gettext_noop` here and translated when shown (`problem_text`, `shown_text`).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from backoffice.ui.mobile_words import NOT_A_MOBILE, reason_text

# --- an order's rule problems (`topup.services.ordering.check_request`) ---------------------

# The wording of a refused number is SMS's too (backoffice.ui.mobile_words.NOT_A_MOBILE); this
# older one is kept for the lines of batches checked before.
OLD_NOT_A_MOBILE = gettext_noop(
    "%(value)s is not a mainland mobile number (11 digits starting with 13-19, optionally +86).")
NO_PRODUCT = gettext_noop("No product code given.")
UNKNOWN_PRODUCT = gettext_noop("Unknown product code %(code)s.")
NOT_ON_SALE = gettext_noop("Product %(code)s is not on sale.")
OTHER_CARRIER = gettext_noop(
    "%(code)s is a %(product_carrier)s product but %(mobile)s is a %(carrier)s number.")
BAD_PRODTIME = gettext_noop("Data period must be 0 (off-peak) or 1 (all-time).")
BAD_PRODSTANDARD = gettext_noop("Networks must be 1 (2G), 3 (2G and 3G) or 7 (all).")

# --- a bulk file's lines (`topup.services.bulkcsv`, `topup.services.bulk`) -------------------

TWO_COLUMNS = gettext_noop("Expected two columns: mobile number, product code.")
TOO_MANY_COLUMNS = gettext_noop(
    "Expected two columns: mobile number, product code; found %(count)s.")
SAME_AS_LINE = gettext_noop(
    "Same number and product as line %(line)s: it will be topped up twice.")
OVER_BALANCE = gettext_noop(
    "The valid rows cost %(total)s yuan but only %(available)s yuan was available at the last "
    "balance check; the provider will refuse orders once it runs out (503).")

# What the `field` of a problem names, for the reader (stored problems keep the code).
FIELD_LABELS: Mapping[str, Promise] = {
    "mobile": _("Mobile number"),
    "product": _("Product"),
    "columns": _("Columns"),
    "prodtime": _("Data period"),
    "prodstandard": _("Networks"),
    "balance": _("Balance"),
}


def field_label(code: str) -> str:
    """The readable name of a problem's field, or its code when it has none."""
    return str(FIELD_LABELS.get(code, code))


def _worded(template: str, params: Mapping[str, object]) -> Mapping[str, object]:
    """The values of a message, with a refused number's reason code put in words."""
    if template == NOT_A_MOBILE and "reason" in params:
        return {**params, "reason": reason_text(str(params["reason"]))}
    return params


def problem_text(template: str, params: Mapping[str, str] | None = None) -> str:
    """A message id marked above, translated now and filled with its values (by name)."""
    return gettext(template) % _worded(template, params) if params else gettext(template)


def at_confirmation_text(message: str) -> str:
    """A line refused when its batch was confirmed rather than when it was checked."""
    return gettext("At confirmation: %(message)s") % {"message": message}


def shown_text(problem: Mapping[str, object]) -> str:
    """A stored problem's text in the active language (its stored text for old batches)."""
    template = str(problem.get("template") or "")
    if not template:
        return str(problem.get("message", ""))
    params = problem.get("params") or {}
    try:
        text = (gettext(template) % _worded(template, dict(params))  # type: ignore[call-overload]
                if params else gettext(template))
    except (KeyError, TypeError, ValueError):
        # A translation that lost a placeholder must not hide the problem.
        return str(problem.get("message", ""))
    if problem.get("at_confirmation"):
        return at_confirmation_text(text)
    return text


# --- manual confirmation ---------------------------------------------------------------------


def reason_too_short_text(minimum: int) -> str:
    """Checked by the form (before the confirmation page) and again by the service."""
    return gettext(
        "Give the reason (at least %(count)d characters), e.g. who confirmed it and how."
    ) % {"count": minimum}


# --- the provider ----------------------------------------------------------------------------


def provider_error_text(error: Exception) -> str:
    """A provider call staff asked for that failed (refused, unreachable or not configured);
    the error's own text says which."""
    return gettext("The provider could not be asked: %(error)s") % {"error": error}
