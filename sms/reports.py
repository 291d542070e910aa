"""Report sync: page through the provider's delivery report and move our messages from
`processing` to their final status.

The report is read newest first without filters, from page 1 back to the oldest message still
open (submitted within SYNC_WINDOW), less RECONCILE_SKEW for clock differences. New messages
arriving while we page push older ones down a page, so a record may be read twice but never
skipped. Each change is a conditional update: only a message whose status is not final moves,
so a final status is never overwritten, and an unknown status the provider reports is stored
verbatim and can still move on later.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Min
from django.utils import timezone

from sms import client as api
from sms.campaigns import RECONCILE_SKEW
from sms.connection import record_quota, sms_client
from sms.models import FINAL_MESSAGE_STATUSES, Message, MessageStatus

logger = logging.getLogger(__name__)

SYNC_WINDOW = timedelta(days=7)  # older open messages are no longer polled
PER_PAGE = 100
MAX_PAGES = 500  # per run; the next run starts again from the newest


@dataclass
class ReportSync:
    pages: int = 0
    records: int = 0
    moved: dict[str, int] = field(default_factory=dict)
    open_left: int = 0

    @property
    def moved_total(self) -> int:
        return sum(self.moved.values())


def _open_messages(since):  # type: ignore[no-untyped-def]
    return Message.objects.filter(
        provider_message_id__isnull=False, submitted_at__gte=since
    ).exclude(status__in=FINAL_MESSAGE_STATUSES)


def sync_reports(
    client: api.SmsClient | None = None,
    window: timedelta = SYNC_WINDOW,
    max_pages: int = MAX_PAGES,
) -> ReportSync:
    """One pass over the report; returns what moved. Safe to run concurrently with sends."""
    result = ReportSync()
    since = timezone.now() - window
    oldest = _open_messages(since).aggregate(oldest=Min("submitted_at"))["oldest"]
    if oldest is None:
        return result
    stop_before = oldest - RECONCILE_SKEW
    client = client or sms_client()
    page = 1
    while page <= max_pages:
        report = client.report(page=page, per_page=PER_PAGE)
        result.pages += 1
        result.records += len(report.messages)
        if report.messages:
            record_quota(report.messages[0].owner)
        apply_records(report.messages, result)
        if len(report.messages) < PER_PAGE or page * PER_PAGE >= report.total:
            break
        if report.messages[-1].created_at < stop_before:
            break
        if not _open_messages(since).exists():
            break
        page += 1
    result.open_left = _open_messages(since).count()
    return result


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
        record = by_id[provider_id]
        if record.status == status or not record.status:
            continue
        changes: dict[str, object] = {"status": record.status, "status_changed_at": now}
        if record.sent_at is not None:
            changes["sent_at"] = record.sent_at
        if record.status == MessageStatus.SUCCESS:
            changes["units_billed"] = record.quantity
        moved = (
            Message.objects.filter(pk=pk, status=status)
            .exclude(status__in=FINAL_MESSAGE_STATUSES)
            .update(**changes)
        )
        if moved:
            result.moved[record.status] = result.moved.get(record.status, 0) + 1
