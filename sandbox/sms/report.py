"""GET /api/messages: the delivery report, filtered, newest first, one page at a time."""

from __future__ import annotations

import re
from datetime import date

from django.http import QueryDict

from sandbox.core.json_types import JSONObject
from sandbox.sms import rules
from sandbox.sms.errors import SmsError
from sandbox.sms.models import Message, MessageStatus
from sandbox.sms.owner_settings import current_owner
from sandbox.sms.serializers import message_json

DEFAULT_PAGE = 1
DEFAULT_PER_PAGE = 20
MAX_PER_PAGE = 100
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def report(query: QueryDict) -> JSONObject:
    page = whole_number(query, "page", DEFAULT_PAGE)
    per_page = whole_number(query, "per_page", DEFAULT_PER_PAGE)
    if per_page > MAX_PER_PAGE:
        raise SmsError("ILLEGAL_PARAMER", f"per_page {per_page} is above {MAX_PER_PAGE}")
    messages = Message.objects.all()
    if query.get("date"):
        messages = messages.filter(day=shanghai_date(query.get("date", "")))
    if query.get("mobile"):
        mobile = rules.national_mobile(query.get("mobile", "").strip())
        if mobile is None:
            raise SmsError("ILLEGAL_MOBILE", f"mobile {query['mobile']!r} is not a mainland "
                                             f"mobile number")
        messages = messages.filter(mobile=mobile)
    if query.get("status"):
        if query["status"] not in MessageStatus.values:
            raise SmsError("ILLEGAL_PARAMER", f"status {query['status']!r} is not one of "
                                              f"{', '.join(MessageStatus.values)}")
        messages = messages.filter(status=query["status"])
    total = messages.count()
    start = (page - 1) * per_page
    rows = list(messages.order_by("-created_at", "-id")[start:start + per_page]) \
        if start < total else []
    owner = current_owner()
    return {"messages": [message_json(message, owner) for message in rows], "total": total}


def whole_number(query: QueryDict, name: str, default: int) -> int:
    raw = query.get(name)
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
        raise SmsError("ILLEGAL_PARAMER", f"{name} {raw!r} is not a whole number of at least 1")
    return int(raw)


def shanghai_date(raw: str) -> date:
    """`date` is a day YYYY-MM-DD in Asia/Shanghai time (DECISIONS)."""
    try:
        if not _DAY.fullmatch(raw):
            raise ValueError
        return date.fromisoformat(raw)
    except ValueError:
        raise SmsError("ILLEGAL_PARAMER", f"date {raw!r} is not a day written YYYY-MM-DD") \
            from None
