"""User-facing wording for the stable codes of `sms.rules`, the import and the provider.

`sms.rules` and `sms.client` speak in codes with English fallbacks and import no Django; this
module turns a code and its parameters into translated text for pages, CSV files and commands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import cast

from django.utils import formats, timezone
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from backoffice.operations.provider import ProviderNotConfigured
from backoffice.ui import mobile_words
from sms import rules
from sms.errors import SmsApiError, SmsTransportError
from sms.models import SuppressionReason

# Import-only codes (a line of a file, not a template or a single send).
DUPLICATE_MOBILE = "DUPLICATE_MOBILE"
TOO_MANY_COLUMNS = "TOO_MANY_COLUMNS"
BROKEN_LINE = "BROKEN_LINE"
# A value of the line holds a word of the merchant's word list.
BLOCKED_VALUE = "BLOCKED_VALUE"
# The number is on the suppression list: the line is set aside, not sent (not an error).
SUPPRESSED = "SUPPRESSED"
# Suppression-file-only codes: a line has the mobile and an optional note, nothing more.
SUPPRESSION_COLUMNS = "SUPPRESSION_COLUMNS"
NOTE_TOO_LONG = "NOTE_TOO_LONG"

FIELD_NAMES: Mapping[str, Promise] = {
    "title": _("title"),
    "temp_sign": _("signature"),
    "content": pgettext_lazy("template field", "content"),
    "sign_location": _("signature position"),
    "type": _("type"),
    "report_type": _("channel"),
    "mobile": _("mobile"),
    "vars": _("variables"),
}

# The wording of a refused number is top-up's too (one sentence, one list of reasons).
MOBILE_REASONS: Mapping[str, Promise] = mobile_words.REASONS

PROBLEM_TEXTS: Mapping[str, Promise] = {
    "BLOCKED_WORD": _("The %(field)s contains “%(word)s”, which is on the merchant's word list: "
                      "remove it, or take it off the list."),
    rules.MISSING_PARAMETER: _("The %(field)s is required."),
    rules.ILLEGAL_TITLE: _(
        "The title must be fewer than %(limit)s characters (it has %(length)s)."
    ),
    rules.ILLEGAL_SIGNATURE: _(
        "The signature must be %(min)s to %(max)s characters long (it has %(length)s)."
    ),
    rules.SIGNATURE_CHARACTERS: _(
        "The signature may contain only letters and digits, without brackets, spaces or "
        "symbols (found: %(characters)s)."
    ),
    rules.FORBIDDEN_CHARACTERS: _(
        "The content must not use the characters 【 】 < > (found: %(characters)s)."
    ),
    rules.ONLY_VARIABLES: _("The content must contain fixed text, not only variables."),
    rules.NOT_A_VARIABLE: _(
        "%(placeholder)s is not a variable: variables are written {$var1} to {$var%(limit)s}."
    ),
    rules.TOO_MANY_VARIABLES: _(
        "%(placeholder)s: a template has at most %(limit)s variables, {$var1} to {$var%(limit)s}."
    ),
    rules.UNSUBSCRIBE_MISSING: _(
        "A marketing template must end with 退订回T, 退订回TD or 退订回N; it can be created, "
        "but every message sent with it will fail."
    ),
    rules.ILLEGAL_CONTENT_LENGTH: _(
        "With its signature in brackets the template has %(length)s characters; at most "
        "%(limit)s are allowed."
    ),
    rules.ILLEGAL_PARAMER: _("The %(field)s must be one of: %(choices)s (got “%(value)s”)."),
    rules.ILLEGAL_REPORT_TYPE: _("The %(field)s must be one of: %(choices)s (got “%(value)s”)."),
    rules.MISSING_VARIABLE: _("No value was given for the variable {$%(variable)s}."),
    rules.VARIABLE_SEPARATOR: _("The value of %(variable)s must not contain the character |."),
    rules.MESSAGE_TOO_LONG: _(
        "The message would have %(length)s characters with its signature; at most %(limit)s "
        "are allowed."
    ),
    rules.ILLEGAL_MOBILE: _(mobile_words.NOT_A_MOBILE),  # noqa: INT001 (marked where defined)
    DUPLICATE_MOBILE: _("Duplicate number: %(value)s is already on line %(first_line)s."),
    TOO_MANY_COLUMNS: _(
        "The line has %(count)s columns; at most 5 are read (the mobile and 4 variables)."
    ),
    BROKEN_LINE: _("The line cannot be read as comma-separated values: %(detail)s."),
    BLOCKED_VALUE: _("The value of %(variable)s contains “%(word)s”, which is on the "
                     "merchant's word list: it may not be sent."),
    SUPPRESSED: _("%(value)s is on the suppression list (%(reason)s): it is not sent."),
    SUPPRESSION_COLUMNS: _(
        "The line has %(count)s columns; a suppression file has at most 2 (the mobile and a "
        "note)."
    ),
    NOTE_TOO_LONG: _("The note has %(length)s characters; at most %(limit)s are kept."),
}

# One short label per reason, for the totals of an import report.
REASON_LABELS: Mapping[str, Promise] = {
    rules.ILLEGAL_MOBILE: _("bad number"),
    DUPLICATE_MOBILE: _("duplicate number"),
    rules.MISSING_VARIABLE: _("missing variable"),
    rules.MESSAGE_TOO_LONG: _("too long"),
    rules.VARIABLE_SEPARATOR: _("forbidden character | in a variable"),
    TOO_MANY_COLUMNS: _("too many columns"),
    BROKEN_LINE: _("unreadable line"),
    BLOCKED_VALUE: _("word on the word list"),
    SUPPRESSED: _("suppressed"),
}

PROVIDER_ERRORS: Mapping[str, Promise] = {
    "INVALID_FILE": _("The provider refused the file: it is missing, too large or malformed."),
    "MISSING_PARAMETER": _("The provider says a required field is empty."),
    "INVALID_CREDENTIALS": _(
        "The provider refused our access token; check SMS_TOKEN in the environment."
    ),
    "REQUIRE_TEMPLATE_OWNER": _("This account has no permission on the template."),
    "REQUIRE_SIGNATURE_OWNER": _("This account has no permission on the signature."),
    "USER_NOT_FOUND": _("The provider does not know this account."),
    "TEMPLATE_NOT_FOUND": _("The template does not exist at the provider (any more)."),
    "NOT_FOUND": _("The provider answered that the page does not exist."),
    "INSUFFICIENT_FUNDS": _("The message quota is insufficient for this send."),
    "MOBILE_LIMIT": _(
        "Too many numbers: at most 1000 per call, and at most 10 industry messages per "
        "number per day."
    ),
    "ILLEGAL_MOBILE": _("The provider refused the mobile number."),
    "ILLEGAL_PARAMER": _("The provider refused a parameter as invalid."),
    "TEMPLATE_LIMIT": _("The channel already has the maximum of 40 templates."),
    "TEMPLATE_AUDITING": _("The template is under review and cannot be used yet."),
    "TEMPLATE_NOT_AUDITED": _("The template has not been reviewed."),
    "ILLEGAL_SIGNATURE": _("The signature must be 3 to 8 characters long."),
    "ILLEGAL_TITLE": _("The title must be fewer than 12 characters."),
    "TEMPLATE_FAILED": _("The template failed review; edit it to resubmit it."),
    "ILLEGAL_CONTENT_LENGTH": _(
        "With its signature in brackets a template may have at most 349 characters."
    ),
    "ILLEGAL_REPORT_TYPE": _("The channel (report type) is invalid."),
    "ILLEGAL_TEMPLATE_ID": _("The template number is invalid."),
    "SMS_SYSTEM_ERROR": _("The provider's SMS service failed; try again later."),
    "SYSTEM_ERROR": _("The provider had a system error; try again later."),
    "TOO_MANY_REQUESTS": _("The provider refused the call: too many calls a second. It is made "
                           "again after the pause the provider asked for."),
}


# Why a campaign run stopped, when it was not a provider error code: codes of our own
# (sms.services.campaigns) and the client's transport failures (stored by their class name).
RUN_FAILURES: Mapping[str, Promise] = {
    "PROVIDER_NOT_CONFIGURED": _(
        "The SMS provider is not configured for the worker: set SMS_API_URL and SMS_TOKEN in "
        "its environment, then resume the campaign."
    ),
    "UNEXPECTED_ERROR": _(
        "An unexpected error stopped the last run; the campaign is retried with growing "
        "waits. Tell the administrators if this stays."
    ),
    "LOCAL_CHECK": _("A value was refused before anything was sent to the provider."),
    "SmsTransportError": _(
        "The provider did not answer (in time); numbers in doubt are checked in its report "
        "before any is sent again."
    ),
    "SmsResponseError": _(
        "The provider's answer could not be understood; numbers in doubt are checked in its "
        "report before any is sent again."
    ),
}


def problem_text(problem: rules.Problem) -> str:
    """A rules finding in the current language, falling back to its English message."""
    template = PROBLEM_TEXTS.get(problem.code)
    if template is None:
        return problem.message
    params: dict[str, object] = {"field": "", "choices": "", "value": "", **problem.params}
    field_name = str(params.get("field") or problem.field)
    params["field"] = FIELD_NAMES.get(field_name, field_name)
    if problem.code == rules.ILLEGAL_MOBILE:
        reason = str(params.get("reason", ""))
        params["reason"] = MOBILE_REASONS.get(reason, reason)
    if problem.code == SUPPRESSED:
        params["reason"] = suppression_reason_label(str(params.get("reason", "")))
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return problem.message


def suppression_reason_label(code: str) -> str:
    """The label of a suppression reason code (the code itself when unknown)."""
    known = dict(SuppressionReason.choices)
    return str(known.get(code, code))


def code_text(code: str, params: Mapping[str, object] | None = None) -> str:
    """The text of an import problem stored as a code and parameters."""
    params = dict(params or {})
    problem = rules.Problem(
        field=str(params.get("field", "")), code=code, message=code,
        params=cast("Mapping[str, str | int]", params),  # a stored Problem's own params
    )
    return problem_text(problem)


# The provider's refusal of a word names it and its place: "content contains '违禁词', a word
# that may not be sent" (the sandbox's wording of the provider's answer).
_REFUSED_WORD = re.compile(r"^(\w+) contains (['\"])(.+)\2, a word that may not be sent")


def refused_word_text(detail: str) -> str | None:
    """The provider's reason in words when its answer names a refused word; None otherwise."""
    match = _REFUSED_WORD.match(detail)
    if match is None:
        return None
    place = FIELD_NAMES.get(match.group(1), match.group(1))
    return gettext("The provider refuses “%(word)s” in the %(place)s: a word it does not allow "
                   "to be sent. Remove it, and add it to the merchant's word list so that it is "
                   "caught before sending.") % {"word": match.group(3), "place": place}


def provider_error_text(code: str, detail: str = "") -> str:
    """A provider error code in the current language, with the provider's own detail."""
    if code == "ILLEGAL_PARAMER" and (named := refused_word_text(detail)) is not None:
        return named
    meaning = PROVIDER_ERRORS.get(code)
    text = (
        str(meaning)
        if meaning is not None
        else gettext("Unknown provider error %(code)s.") % {"code": code}
    )
    if detail:
        return gettext("%(text)s (provider: %(detail)s)") % {"text": text, "detail": detail}
    return text


def message_failure_text(status: str, error_code: str) -> str:
    """Why one number was refused (`rejected`) or not delivered (`failed`); "" otherwise."""
    if status not in ("rejected", "failed"):
        return ""
    if error_code:
        return provider_error_text(error_code)
    if status == "rejected":
        return gettext("The provider refused this number without giving a reason.")
    return gettext(
        "The carrier reported the message as not delivered (for example: the phone is off "
        "or out of service, the number is closed, or the message was blocked)."
    )


def halt_text(code: str, detail: str = "") -> str:
    """Why a campaign stopped (or what went wrong last), from its stored code and detail."""
    meaning = RUN_FAILURES.get(code)
    if meaning is None:
        return provider_error_text(code, detail)
    if detail:
        return gettext("%(text)s (%(detail)s)") % {"text": meaning, "detail": detail}
    return str(meaning)


def failure_text(error: Exception) -> str:
    """What to tell staff when a provider call failed, whatever the failure."""
    if isinstance(error, SmsApiError):
        return provider_error_text(error.code, error.message)
    if isinstance(error, SmsTransportError):
        return gettext(
            "The provider did not answer properly (%(detail)s); nothing was changed here. "
            "Try again in a moment."
        ) % {"detail": error}
    if isinstance(error, ProviderNotConfigured):
        return gettext("The SMS provider is not configured: %(detail)s") % {"detail": error}
    return gettext("Unexpected error: %(detail)s") % {"detail": error}


# What saving the template edit form did (sms.services.EditOutcome's `what`).
_EDIT_OUTCOMES = {
    "changed": _("Template #%(id)s was changed and resubmitted for review."),
    "resubmitted": _("Template #%(id)s was resubmitted for review unchanged: it cannot be used "
                     "until the provider approves it."),
    "unchanged": _("Nothing was changed: template #%(id)s stays as it was, and was not sent "
                   "for review."),
}


def edit_outcome_text(what: str, template_id: int) -> str:
    return str(_EDIT_OUTCOMES[what]) % {"id": template_id}


# The provider's review time (sms.services.review_time), said when a template is submitted.
_REVIEW_TIMES = {
    "vip": _("The vip channel's review takes 1 to 3 hours on working days: expected by "
             "%(when)s."),
    "filed": _("Review takes 1 to 3 hours on working days, as the signature %(sign)s is "
               "already filed: expected by %(when)s."),
    "new_signature": _("Review of a new signature on the general channel takes 4 to 5 "
                       "working days: expected by %(when)s."),
}


def review_time_text(kind: str, expected_by: datetime, sign: str) -> str:
    when = formats.date_format(timezone.localtime(expected_by), "Y-m-d H:i")
    return str(_REVIEW_TIMES[kind]) % {"when": f"{when} ({timezone.get_current_timezone_name()})",
                                       "sign": sign}
