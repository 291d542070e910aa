"""POST /api/messages: validate a send, judge every number, hold the quota, store messages.

Order of the checks, cheapest first: required fields (400), template number (422), number
count (MOBILE_LIMIT, whole call), the template's existence and review state, the variable
values and the rendered length (whole call), then each number (ILLEGAL_MOBILE or the industry
daily MOBILE_LIMIT on its item), and last the quota for the numbers that remain (whole call).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.db.models import Count, Sum

from sandbox.core import clock
from sandbox.core.json_types import JSONObject
from sandbox.sms import rules
from sandbox.sms.errors import SmsError
from sandbox.sms.fields import required_text, template_id_of
from sandbox.sms.lookups import find_template
from sandbox.sms.models import Message, MessageStatus, MessageType, Template, TemplateStatus
from sandbox.sms.owner_settings import stored_owner
from sandbox.sms.template_checks import check_words


@dataclass
class Item:
    """One submitted number and what became of it."""

    entry: str
    mobile: str | None = None  # the national number once accepted
    error_code: str | None = None
    message_id: int | None = None

    def as_json(self) -> JSONObject:
        if self.error_code:
            return {"error_code": self.error_code, "mobile": self.entry}
        return {"message_id": self.message_id, "mobile": self.entry}


@dataclass
class Rendered:
    text: str  # the delivered text, 【sign】 included
    quantity: int  # billing units of one message


def send(fields: JSONObject) -> list[JSONObject]:
    mobile = required_text(fields, "mobile")
    raw_id = fields.get("template_id")
    if raw_id is None or raw_id == "":
        raise SmsError("MISSING_PARAMETER", "template_id is required")
    template_id = template_id_of(raw_id)
    raw_vars = fields.get("vars")
    if raw_vars is not None and not isinstance(raw_vars, str):
        raise SmsError("ILLEGAL_PARAMER", "vars must be one string of values separated by |")
    items = [Item(entry=entry.strip()) for entry in mobile.split(",")]
    if len(items) > rules.MAX_NUMBERS_PER_CALL:
        raise SmsError("MOBILE_LIMIT", f"{len(items)} numbers given; at most "
                                       f"{rules.MAX_NUMBERS_PER_CALL} per call")
    now = clock.now()
    created_at = rules.utc_datetime(now)
    day = rules.shanghai_day(created_at)
    with transaction.atomic():
        template = usable_template(template_id)
        rendered = render(template, rules.split_vars(raw_vars))
        judge_numbers(items, template.type, day)
        accepted = [item for item in items if item.error_code is None]
        check_funds(template.report_type, rendered.quantity * len(accepted))
        store_messages(template, rendered, accepted, now, day)
    return [item.as_json() for item in items]


def usable_template(template_id: int) -> Template:
    template = find_template(template_id)
    if template.status == TemplateStatus.REVIEW:
        raise SmsError("TEMPLATE_AUDITING", f"template {template_id} waits for review")
    if template.status == TemplateStatus.DEFEAT:
        raise SmsError("TEMPLATE_FAILED", f"template {template_id} was refused at review; "
                                          f"edit it to resubmit")
    return template


def render(template: Template, values: list[str]) -> Rendered:
    needed = rules.variables_needed(template.content)
    if len(values) < needed:
        raise SmsError("ILLEGAL_PARAMER", f"vars holds {len(values)} values; template "
                                          f"{template.pk} needs {needed}")
    text = rules.render(template.content, values)
    check_words(vars=" ".join(values))
    length = rules.billed_length(text, template.temp_sign)
    if length > rules.MAX_MESSAGE_LENGTH:
        raise SmsError("ILLEGAL_CONTENT_LENGTH", f"the message would have {length} characters "
                                                 f"with its signature; at most "
                                                 f"{rules.MAX_MESSAGE_LENGTH}")
    return Rendered(text=rules.delivered_text(text, template.temp_sign, template.sign_location),
                    quantity=rules.units(length))


def judge_numbers(items: list[Item], message_type: str, day: date) -> None:
    """Mark bad numbers ILLEGAL_MOBILE and, for industry messages, numbers past their daily
    allowance MOBILE_LIMIT; earlier numbers of the same call count towards the allowance."""
    for item in items:
        item.mobile = rules.national_mobile(item.entry)
        if item.mobile is None:
            item.error_code = "ILLEGAL_MOBILE"
    if message_type != MessageType.INDUSTRY:
        return
    numbers = {item.mobile for item in items if item.mobile}
    rows = Message.objects.filter(day=day, type=MessageType.INDUSTRY, mobile__in=numbers) \
        .order_by().values("mobile").annotate(count=Count("id"))
    sent_today = Counter({row["mobile"]: row["count"] for row in rows})
    for item in items:
        if item.error_code or item.mobile is None:
            continue
        if sent_today[item.mobile] >= rules.INDUSTRY_PER_NUMBER_PER_DAY:
            item.error_code = "MOBILE_LIMIT"
        else:
            sent_today[item.mobile] += 1


def check_funds(report_type: str, needed: int) -> None:
    """Units are deducted on success only, so messages still in progress hold theirs: the
    quota left for a new send is the remaining quota minus what is held."""
    if needed == 0:
        return
    remaining = getattr(stored_owner(), report_type)
    held = Message.objects.filter(status=MessageStatus.PROCESSING, report_type=report_type) \
        .aggregate(total=Sum("quantity"))["total"] or 0
    if needed > remaining - held:
        raise SmsError("INSUFFICIENT_FUNDS", f"this send needs {needed} units; the {report_type} "
                                             f"quota has {remaining} left, {held} of them held "
                                             f"by messages in progress")


def store_messages(template: Template, rendered: Rendered, accepted: list[Item], now: float,
                   day: date) -> None:
    created_at = rules.utc_datetime(now)
    missing_unsubscribe = (template.type == MessageType.MARKETING
                           and not rules.has_unsubscribe_wording(template.content))
    messages = Message.objects.bulk_create([
        Message(template_id=template.pk, report_type=template.report_type, title=template.title,
                type=template.type, content=rendered.text, temp_sign=template.temp_sign,
                mobile=item.mobile,  # type: ignore[misc]  # set on every accepted item
                created_at=created_at, created_ts=now, day=day,
                quantity=rendered.quantity, missing_unsubscribe=missing_unsubscribe)
        for item in accepted
    ])
    for item, message in zip(accepted, messages, strict=True):
        item.message_id = message.pk
