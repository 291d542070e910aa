"""Delivery report search over our Message rows: filters, keyset pages and CSV rows.

Pages are cut by id (newest first) instead of OFFSET, and whether a next page exists is
learnt by fetching one row more than shown, so no page ever counts the whole table.

Dates are those of the send (`submitted_at`: when the number went to the provider), not of
the import: a campaign imported on Monday and sent on Tuesday is found under Tuesday, and a
number never sent (queued, cancelled) has no date, so only a search without dates shows it.
Numbers of a campaign still waiting for confirmation (a draft) are not in the report.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db import connection
from django.db.models import (
    BigIntegerField,
    Case,
    ExpressionWrapper,
    F,
    Func,
    QuerySet,
    Subquery,
    TextField,
    Value,
    When,
)
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.ui import csv_export
from sms.models import CampaignState, Message, MessageStatus
from sms.services import csv_copy

PAGE_SIZE = 50
UNKNOWN_STATUS = "unknown"  # filter value: any status we do not know
MOBILE_LENGTH = 11


@dataclass(frozen=True)
class Filters:
    mobile: str = ""  # a whole number, or its first digits (fewer than 11: a prefix search)
    status: str = ""
    date_from: date | None = None
    date_to: date | None = None
    campaign_id: int | None = None


def _day_start(day: date) -> datetime:
    # Days are those of the back-office's time zone (Asia/Shanghai by default).
    return timezone.make_aware(datetime.combine(day, time.min))


def filtered(filters: Filters) -> QuerySet[Message]:
    messages = Message.objects.exclude(campaign__state=CampaignState.DRAFT)
    if len(filters.mobile) == MOBILE_LENGTH:
        messages = messages.filter(mobile=filters.mobile)
    elif filters.mobile:
        messages = messages.filter(**_prefix_range(filters.mobile))
    if filters.status == UNKNOWN_STATUS:
        messages = messages.exclude(status__in=MessageStatus.values)
    elif filters.status:
        messages = messages.filter(status=filters.status)
    if filters.date_from:
        messages = messages.filter(submitted_at__gte=_day_start(filters.date_from))
    if filters.date_to:
        messages = messages.filter(
            submitted_at__lt=_day_start(filters.date_to + timedelta(days=1))
        )
    if filters.campaign_id:
        messages = messages.filter(
            campaign_id=filters.campaign_id, **campaign_id_bounds(filters.campaign_id)
        )
    return messages


def _prefix_range(prefix: str) -> dict[str, str]:
    """Numbers starting with `prefix` (digits only), as a range on the mobile column.

    A plain range (`mobile >= '138001' AND mobile < '138002'`) is read from the existing
    (mobile, id) btree index whatever the database's collation, which `LIKE '138001%'` is
    only with a text_pattern_ops index. The upper bound is the prefix plus one as a number
    ("1389" -> "1390"), so it never needs a character past '9'.
    """
    return {"mobile__gte": prefix, "mobile__lt": str(int(prefix) + 1)}


def campaign_id_bounds(campaign_id: int) -> dict[str, Subquery]:
    """The campaign's first and last message id, as conditions on id.

    Redundant, but they tell PostgreSQL where the campaign's rows lie: without them it walks
    the primary key newest first expecting the campaign's messages spread evenly, and reads
    every newer message before the first of an old campaign (800,000 rows for the oldest of
    bench/report_scale.py). Each bound is one probe of the (campaign, id) index.
    """
    ids = Message.objects.filter(campaign_id=campaign_id).values("id")
    return {
        "id__gte": Subquery(ids.order_by("id")[:1]),
        "id__lte": Subquery(ids.order_by("-id")[:1]),
    }


@dataclass(frozen=True)
class Page:
    rows: list[Message]
    newer_cursor: int | None  # pass as `after` for the page before (newer rows)
    older_cursor: int | None  # pass as `before` for the page after (older rows)


def _in_the_past(filters: Filters) -> bool:
    return filters.date_to is not None and filters.date_to < timezone.localdate()


def _newest_of_past_days(
    filters: Filters,
    messages: QuerySet[Message],
    before: int | None,
    after: int | None,
    size: int,
) -> QuerySet[Message]:
    """The page's rows of days wholly in the past, picked by id from the send-date index.

    Sorted on the id column, PostgreSQL walks the primary key newest first and stops after a
    page: right when the newest rows match, but for days in the past it first reads every
    message sent since (a week back on a busy account: a quarter of the table). Here the
    page's ids are chosen first among the days' rows, sorted on `id + 0` so that no index
    but the send-date one (which carries id, status and campaign) is used: a cost bounded by
    the days asked for, read from the index alone; the rows are then fetched by id.
    """
    candidates = filtered(filters)
    plus_zero = ExpressionWrapper(F("id") + 0, output_field=BigIntegerField())
    if after is not None:
        candidates = candidates.filter(id__gt=after)
        key = plus_zero.asc()
    else:
        if before is not None:
            candidates = candidates.filter(id__lt=before)
        key = plus_zero.desc()
    chosen = candidates.order_by(key).values("id")[: size + 1]
    return messages.filter(id__in=Subquery(chosen))


def page(
    filters: Filters, before: int | None = None, after: int | None = None, size: int = PAGE_SIZE
) -> Page:
    """One page, newest first: rows older than `before`, or the page just newer than `after`."""
    messages = filtered(filters).select_related("campaign__template")
    if _in_the_past(filters):
        messages = _newest_of_past_days(filters, messages, before, after, size)
    if after is not None:
        rows = list(messages.filter(id__gt=after).order_by("id")[: size + 1])
        has_newer = len(rows) > size
        rows = list(reversed(rows[:size]))
        return Page(
            rows=rows,
            newer_cursor=rows[0].id if has_newer and rows else None,
            older_cursor=rows[-1].id if rows else None,
        )
    if before is not None:
        messages = messages.filter(id__lt=before)
    rows = list(messages.order_by("-id")[: size + 1])
    has_older = len(rows) > size
    rows = rows[:size]
    return Page(
        rows=rows,
        newer_cursor=rows[0].id if before is not None and rows else None,
        older_cursor=rows[-1].id if has_older and rows else None,
    )


def _when(value: datetime | None) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S") if value else ""


# The export's columns, in order: csv_lines reads them raw, csv_bytes shapes them in SQL.
_CSV_FIELDS = (
    "id",
    "created_at",
    "mobile",
    "carrier",
    "status",  # twice: the translated label, then the provider's status verbatim
    "status",
    "error_code",
    "units",
    "units_billed",
    "text",
    "campaign_id",
    "campaign__template__provider_id",
    "provider_message_id",
    "submitted_at",
    "sent_at",
)


def csv_bytes(filters: Filters) -> Iterator[bytes]:
    """The CSV export as sent: written by PostgreSQL's COPY there, by csv_lines elsewhere."""
    return messages_csv_bytes(filtered(filters))


def messages_csv_bytes(messages: QuerySet[Message]) -> Iterator[bytes]:
    """`messages`, newest first, as the report's CSV export (an archived month's too)."""
    if connection.vendor != "postgresql":
        return (line.encode() for line in _csv_lines_of(messages))
    shaped = {
        "created_at": csv_copy.local_time("created_at"),
        "mobile": csv_copy.guarded("mobile"),
        "carrier": csv_copy.guarded("carrier"),
        "error_code": csv_copy.guarded("error_code"),
        "text": csv_copy.guarded("text"),
        "provider_message_id": csv_copy.blank_zero("provider_message_id"),
        "submitted_at": csv_copy.local_time("submitted_at"),
        "sent_at": csv_copy.local_time("sent_at"),
    }
    cells = {f"cell_{index}": shaped.get(name, F(name)) for index, name in enumerate(_CSV_FIELDS)}
    label, raw = (index for index, name in enumerate(_CSV_FIELDS) if name == "status")
    cells[f"cell_{label}"] = csv_copy.guarded_expression(_status_label_sql())
    cells[f"cell_{raw}"] = csv_copy.guarded("status")
    rows = messages.order_by("-id").annotate(**cells).values_list(*cells)
    return csv_copy.copy_csv(_csv_headers(), rows)


def _status_label_sql() -> Case:
    """Message.status_label in SQL, in the current language."""
    unknown = Func(
        Value(_("Unknown status (%(status)s)")),
        Value("%(status)s"),
        F("status"),
        function="replace",
        output_field=TextField(),
    )
    return Case(
        *(When(status=value, then=Value(str(label))) for value, label in MessageStatus.choices),
        default=unknown,
        output_field=TextField(),
    )


def _status_label(status: str) -> str:
    known = dict(MessageStatus.choices)
    if status in known:
        return str(known[status])
    return _("Unknown status (%(status)s)") % {"status": status}


def csv_lines(filters: Filters) -> Iterator[str]:
    """The CSV export, one line at a time (see backoffice.ui.csv_export), from plain tuples."""
    return _csv_lines_of(filtered(filters))


def _csv_lines_of(messages: QuerySet[Message]) -> Iterator[str]:
    rows = messages.order_by("-id").values_list(*_CSV_FIELDS).iterator(chunk_size=2000)
    return csv_export.csv_lines(_csv_headers(), (_csv_row(row) for row in rows))


def _csv_row(row: tuple[Any, ...]) -> list[object]:
    (
        message_id, created_at, mobile, carrier, status, raw_status, error_code, units,
        units_billed, text, campaign_id, template_number, provider_message_id, submitted_at,
        sent_at,
    ) = row
    return [
        message_id,
        _when(created_at),
        mobile,
        carrier,
        _status_label(status),
        raw_status,
        error_code,
        units,
        "" if units_billed is None else units_billed,
        text,
        campaign_id,
        template_number,
        provider_message_id or "",
        _when(submitted_at),
        _when(sent_at),
    ]


def _csv_headers() -> tuple[str, ...]:
    return (
        _("Message"),
        _("Created at"),
        _("Mobile"),
        _("Carrier"),
        _("Status"),
        _("Provider status"),
        _("Error code"),
        _("Units"),
        _("Units billed"),
        _("Text"),
        _("Campaign"),
        _("Template number"),
        _("Provider message number"),
        _("Submitted at"),
        _("Sent at"),
    )
