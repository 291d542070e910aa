"""Validation of a template as created or edited: each refusal carries the spec's code.

Text checks come first (they need no state), the per-channel caps last (they read the other
templates and must run inside the transaction that writes).
"""

from __future__ import annotations

from sandbox.sms import rules
from sandbox.sms.errors import SmsError
from sandbox.sms.models import MessageType, ReportType, SensitiveWord, SignLocation, Template


def check_words(**texts: str) -> None:
    """Refuses a text holding a word of the provider's list, naming the word and the field
    (case-insensitive, anywhere in the text: the provider's list is of words, not patterns)."""
    words = list(SensitiveWord.objects.values_list("word", flat=True))
    for place, value in texts.items():
        folded = value.casefold()
        for word in words:
            if word.casefold() in folded:
                raise SmsError("ILLEGAL_PARAMER",
                               f"{place} contains {word!r}, a word that may not be sent")


def check_kind(type_: str, report_type: str) -> None:
    if report_type not in ReportType.values:
        raise SmsError("ILLEGAL_REPORT_TYPE",
                       f"report_type {report_type!r} is not one of vip, general")
    if type_ not in MessageType.values:
        raise SmsError("ILLEGAL_PARAMER", f"type {type_!r} is not one of industry, marketing")


def check_text(title: str, temp_sign: str, content: str, sign_location: str) -> None:
    if sign_location not in SignLocation.values:
        raise SmsError("ILLEGAL_PARAMER",
                       f"sign_location {sign_location!r} is not one of top, bottom")
    if len(title) >= rules.TITLE_MAX_EXCLUSIVE:
        raise SmsError("ILLEGAL_TITLE", f"title has {len(title)} characters; at most "
                                        f"{rules.TITLE_MAX_EXCLUSIVE - 1} are allowed")
    problem = rules.signature_problem(temp_sign)
    if problem:
        raise SmsError("ILLEGAL_SIGNATURE", problem)
    check_content(content)
    check_words(title=title, temp_sign=temp_sign, content=content)
    total = len(temp_sign) + len(content)
    if total >= rules.TEMPLATE_LENGTH_LIMIT:
        raise SmsError("ILLEGAL_CONTENT_LENGTH", f"temp_sign and content have {total} "
                                                 f"characters together")


def check_content(content: str) -> None:
    forbidden = rules.forbidden_characters(content)
    if forbidden:
        raise SmsError("ILLEGAL_PARAMER",
                       f"content may not contain {' '.join(forbidden)}; the service adds the "
                       f"signature brackets itself")
    bad = rules.bad_placeholders(content)
    if bad:
        raise SmsError("ILLEGAL_PARAMER", f"content has {bad[0]}; variables are written "
                                          "{$var1}, {$var2}, ...")
    if rules.is_only_variables(content):
        raise SmsError("ILLEGAL_PARAMER", "content needs fixed text besides its variables")


def check_caps(report_type: str, temp_sign: str, editing: Template | None = None) -> None:
    """40 templates and 20 distinct signatures per channel; call inside the writing
    transaction so that parallel requests cannot both take the last place."""
    others = Template.objects.filter(report_type=report_type)
    if editing is not None:
        others = others.exclude(pk=editing.pk)
    elif others.count() >= rules.TEMPLATES_PER_CHANNEL:
        raise SmsError("TEMPLATE_LIMIT", f"the {report_type} channel already has "
                                         f"{rules.TEMPLATES_PER_CHANNEL} templates")
    signatures = set(others.values_list("temp_sign", flat=True).distinct())
    if temp_sign not in signatures and len(signatures) >= rules.SIGNATURES_PER_CHANNEL:
        raise SmsError("ILLEGAL_SIGNATURE", f"the {report_type} channel already has "
                                            f"{rules.SIGNATURES_PER_CHANNEL} signatures; reuse "
                                            f"one of them")
