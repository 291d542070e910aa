"""Report sync: read the provider's delivery report and move our messages from `processing`
to their final status.

What is read follows from what is still open (accepted by the provider, not final, submitted
within SYNC_WINDOW), so that no open message is ever out of reach:

- One report day at a time. The report's `date` is an Asia/Shanghai day (DECISIONS); a day is
  read only when an open message was submitted in it, give or take RECONCILE_SKEW (clocks
  differ: a message sent just before midnight may be on the provider's next day). Records of
  other days, however many, are never paged through.
- Few numbers open on a day (PER_NUMBER_LOOKUPS or fewer): that day is read per number
  (`date` and `mobile`), usually one page each.
- Otherwise the day is paged newest first, down to its oldest open message less the skew.
- A run reads at most `max_pages` pages, shared between the days, least recently read day
  first. A day it could not finish is continued by the next run from the page it stopped at
  (`ReportSyncState.cursors`), so a day of any length is covered over a few runs. New records
  arrive at the top and push older ones down: a continued pass may read a record twice, but
  never skips one.
- One run at a time: a lease on the ReportSyncState row, taken and renewed with conditional
  updates like a campaign's. A run that finds it held returns at once (`busy`).

Each change is a conditional update: only a message whose status is not final moves, so a
final status is never overwritten, and an unknown status the provider reports is stored
verbatim and can still move on later.
"""

from __future__ import annotations

import logging
import math
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Max, Min, Q, QuerySet
from django.utils import timezone

from sms import client as api
from sms.models import FINAL_MESSAGE_STATUSES, Message, MessageStatus, ReportSyncState
from sms.services.campaign_reconcile import RECONCILE_SKEW
from sms.services.connection import record_quota, sms_client
from sms.services.timing import lease_duration
from sms.verbatim import fit_code

logger = logging.getLogger(__name__)

REPORT_TZ = ZoneInfo("Asia/Shanghai")  # DECISIONS: the report's `date` is a day there
SYNC_WINDOW = timedelta(days=7)  # older open messages are no longer polled
PER_PAGE = 100
MAX_PAGES = 60  # per run, over all days (the beat job runs every minute)
PER_NUMBER_LOOKUPS = 20  # up to this many open numbers on a day: one query per number
STATE_PK = 1


@dataclass
class ReportSync:
    pages: int = 0
    records: int = 0
    moved: dict[str, int] = field(default_factory=dict)
    open_left: int = 0
    busy: bool = False  # another sync was running: this one read nothing

    @property
    def moved_total(self) -> int:
        return sum(self.moved.values())


def _open_messages(since: datetime) -> QuerySet[Message]:
    return Message.objects.filter(
        provider_message_id__isnull=False, submitted_at__gte=since
    ).exclude(status__in=FINAL_MESSAGE_STATUSES)


# --- the lease -------------------------------------------------------------------------------


def take_lease() -> str | None:
    """Become the one running sync; None when another holds the lease."""
    ReportSyncState.objects.get_or_create(pk=STATE_PK)
    token = uuid.uuid4().hex
    now = timezone.now()
    taken = (
        ReportSyncState.objects.filter(pk=STATE_PK)
        .filter(Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now))
        .update(lease_owner=token, lease_expires_at=now + lease_duration())
    )
    return token if taken else None


def renew_lease(token: str) -> bool:
    return bool(
        ReportSyncState.objects.filter(pk=STATE_PK, lease_owner=token).update(
            lease_expires_at=timezone.now() + lease_duration()
        )
    )


def release_lease(token: str) -> None:
    ReportSyncState.objects.filter(pk=STATE_PK, lease_owner=token).update(
        lease_owner="", lease_expires_at=None, finished_at=timezone.now()
    )


# --- the days to read ------------------------------------------------------------------------


def _day_of(moment: datetime) -> date:
    return moment.astimezone(REPORT_TZ).date()


def _reach(day: date) -> tuple[datetime, datetime]:
    """The submission times whose record the provider may have put on `day`."""
    start = datetime.combine(day, time.min, REPORT_TZ)
    return start - RECONCILE_SKEW, start + timedelta(days=1) + RECONCILE_SKEW


def _open_on(day: date, since: datetime) -> QuerySet[Message]:
    low, high = _reach(day)
    return _open_messages(since).filter(submitted_at__gte=low, submitted_at__lt=high)


def report_days(since: datetime) -> list[date]:
    """The report days that may hold a record of an open message, oldest first."""
    bounds = _open_messages(since).aggregate(first=Min("submitted_at"), last=Max("submitted_at"))
    if bounds["first"] is None:
        return []
    day, last = _day_of(bounds["first"] - RECONCILE_SKEW), _day_of(bounds["last"] + RECONCILE_SKEW)
    days: list[date] = []
    while day <= last:
        if _open_on(day, since).exists():
            days.append(day)
        day += timedelta(days=1)
    return days


# --- reading ---------------------------------------------------------------------------------


class _LeaseLost(Exception):
    """Another sync holds the lease now (ours ran out): stop reading."""


class _Reader:
    """One run's reading of the report, page by page, within its budget."""

    def __init__(
        self, client: api.SmsClient, token: str, since: datetime, result: ReportSync
    ) -> None:
        self.client = client
        self.token = token
        self.since = since
        self.result = result

    def read(self, **query: Any) -> api.Report:
        report = self.client.report(per_page=PER_PAGE, **query)
        self.result.pages += 1
        self.result.records += len(report.messages)
        if report.messages:
            record_quota(report.messages[0].owner)
        apply_records(report.messages, self.result)
        if not renew_lease(self.token):
            raise _LeaseLost
        return report

    def day(self, day: date, budget: int, cursor: int) -> tuple[int, int]:
        """Read `day` with at most `budget` pages; returns (pages read, next run's page)."""
        open_here = _open_on(day, self.since)
        mobiles = list(
            open_here.order_by().values_list("mobile", flat=True).distinct()[
                : PER_NUMBER_LOOKUPS + 1
            ]
        )
        if len(mobiles) <= PER_NUMBER_LOOKUPS:
            return self._per_number(day, mobiles, open_here, budget), 1
        return self._paged(day, open_here, budget, cursor)

    def _per_number(
        self, day: date, mobiles: list[str], open_here: QuerySet[Message], budget: int
    ) -> int:
        used = 0
        for mobile in mobiles:
            page = 1
            while used < budget:
                report = self.read(date=day, mobile=mobile, page=page)
                used += 1
                if _last_page(report, page) or not open_here.filter(mobile=mobile).exists():
                    break
                page += 1
        return used

    def _paged(
        self, day: date, open_here: QuerySet[Message], budget: int, cursor: int
    ) -> tuple[int, int]:
        oldest = open_here.aggregate(oldest=Min("submitted_at"))["oldest"]
        stop_before = oldest - RECONCILE_SKEW
        page, used = cursor, 0
        while used < budget:
            report = self.read(date=day, page=page)
            used += 1
            past_ours = bool(report.messages) and report.messages[-1].created_at < stop_before
            if _last_page(report, page) or past_ours or not open_here.exists():
                return used, 1  # the pass is over: the next one starts from the newest
            page += 1
        return used, page


def _last_page(report: api.Report, page: int) -> bool:
    return len(report.messages) < PER_PAGE or page * PER_PAGE >= report.total


def sync_reports(
    client: api.SmsClient | None = None,
    window: timedelta = SYNC_WINDOW,
    max_pages: int = MAX_PAGES,
) -> ReportSync:
    """One run over the report days of the open messages; returns what moved.

    Safe to run concurrently with sends, and with itself (the second returns `busy`).
    Provider errors propagate (after the progress made is saved and the lease released).
    """
    result = ReportSync()
    since = timezone.now() - window
    if not _open_messages(since).exists():
        return result
    token = take_lease()
    if token is None:
        result.busy = True
        result.open_left = _open_messages(since).count()
        return result
    try:
        _run(client or sms_client(), token, since, max_pages, result)
    finally:
        release_lease(token)
    result.open_left = _open_messages(since).count()
    return result


def _run(
    client: api.SmsClient, token: str, since: datetime, max_pages: int, result: ReportSync
) -> None:
    saved: dict[str, dict[str, Any]] = ReportSyncState.objects.get(pk=STATE_PK).cursors or {}
    days = report_days(since)
    # Only the days still open keep a cursor: {"page": next page to read, "at": last read}.
    cursors = {
        day.isoformat(): dict(saved.get(day.isoformat(), {"page": 1, "at": ""})) for day in days
    }
    # Least recently read first, so that a small budget still reaches every day in turn.
    days.sort(key=lambda day: (cursors[day.isoformat()]["at"], day))
    reader = _Reader(client, token, since, result)
    budget = max_pages
    try:
        for position, day in enumerate(days):
            share = math.ceil(budget / (len(days) - position))
            if share <= 0:
                break
            cursor = cursors[day.isoformat()]
            used, cursor["page"] = reader.day(day, share, int(cursor["page"]))
            cursor["at"] = timezone.now().isoformat()
            budget -= used
    except _LeaseLost:
        logger.warning("SMS report sync: lease lost, another sync carries on")
    finally:
        ReportSyncState.objects.filter(pk=STATE_PK, lease_owner=token).update(cursors=cursors)


def apply_records(records: tuple[api.Message, ...], result: ReportSync) -> None:
    """Move each of our open messages to the status its report record shows."""
    by_id = {record.id: record for record in records}
    ours = (
        Message.objects.filter(provider_message_id__in=list(by_id))
        .exclude(status__in=FINAL_MESSAGE_STATUSES)
        .values_list("id", "provider_message_id", "status")
    )
    now = timezone.now()
    for pk, provider_id, status in ours:
        record = by_id[provider_id]  # type: ignore[index]  # selected by provider_message_id__in: never None
        new_status = fit_code(record.status, "message status")
        if new_status == status or not new_status:
            continue
        changes: dict[str, object] = {"status": new_status, "status_changed_at": now}
        if record.sent_at is not None:
            changes["sent_at"] = record.sent_at
        if new_status == MessageStatus.SUCCESS:
            changes["units_billed"] = record.quantity
        moved = (
            Message.objects.filter(pk=pk, status=status)
            .exclude(status__in=FINAL_MESSAGE_STATUSES)
            .update(**changes)
        )
        if moved:
            result.moved[new_status] = result.moved.get(new_status, 0) + 1
