"""Reconciliation (campaigns.py, rule 4): the numbers a run left `submitting` (it died during
the call, or the answer was lost or uncertain) are looked up in the provider's delivery report.

`Reconciliation` is a part of `campaigns.CampaignRun`, kept here so that each module has one
job; it uses the run's client, campaign, lease (`renew`) and `_unmark`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from sms import client as api
from sms import errors
from sms.models import Campaign, Chunk, Message, MessageStatus
from sms.services import run_stops as stops
from sms.services.connection import record_quota
from sms.services.timing import reconcile_grace
from sms.verbatim import fit_code

RECONCILE_SKEW = timedelta(minutes=10)  # tolerated difference between our and their clocks
REPORT_PAGE = 100
PER_NUMBER_LOOKUPS = 20  # up to this many uncertain numbers: one report query per number
MAX_RECONCILE_PAGES = 10_000


class Reconciliation:
    campaign_id: int
    campaign: Campaign
    client: api.SmsClient

    def renew(self) -> None:
        raise NotImplementedError

    def _unmark(self, ids: list[int]) -> None:
        raise NotImplementedError

    def reconcile(self, chunk: Chunk, cancelled: bool = False) -> None:
        """Settle every `submitting` message of the chunk from the delivery report (rule 4)."""
        uncertain = list(
            Message.objects.filter(chunk_id=chunk.pk, status=MessageStatus.SUBMITTING)
            .order_by("id")
            .only("id", "mobile", "submitted_at")
        )
        if not uncertain:
            return
        # Taken before the report is read: only what the provider finished by then is in it.
        grace = reconcile_grace()
        decided_before = timezone.now() - grace
        oldest = min(message.submitted_at or timezone.now() for message in uncertain)
        since = oldest - RECONCILE_SKEW
        mobiles = {message.mobile for message in uncertain}
        if len(uncertain) <= PER_NUMBER_LOOKUPS:
            records = [record for mobile in mobiles for record in self._report_of(mobile, since)]
        else:
            # One pass over the whole report is cheaper than a query per number.
            records = self._report_since(since, mobiles)
        candidates = self._unclaimed_by_mobile(records)
        wait_until: datetime | None = None
        found: list[tuple[Message, api.Message]] = []
        for message in uncertain:
            window_start = (message.submitted_at or timezone.now()) - RECONCILE_SKEW
            record = _take_oldest(candidates.get(message.mobile, []), window_start)
            if record is not None:
                found.append((message, record))
            elif message.submitted_at is not None and message.submitted_at > decided_before:
                # Absent from the report proves nothing yet: the provider may still be working
                # on the call that carried it (rule 4).
                until = message.submitted_at + grace
                wait_until = until if wait_until is None else max(wait_until, until)
            elif cancelled:
                changed = Message.objects.filter(
                    pk=message.pk, status=MessageStatus.SUBMITTING
                ).update(status=MessageStatus.CANCELLED, status_changed_at=timezone.now())
                Campaign.objects.filter(pk=self.campaign_id).update(
                    cancelled_count=F("cancelled_count") + changed
                )
            else:
                self._unmark([message.pk])
        self._adopt(found)
        if wait_until is not None:
            raise stops.WaitForProvider(wait_until)

    def _report(self, **query: object) -> api.Report:
        self.renew()
        try:
            # `query` holds report()'s own keyword arguments (a date or message ids).
            return self.client.report(per_page=REPORT_PAGE, **query)  # type: ignore[arg-type]
        except errors.SmsError as error:
            raise stops.Uncertain(error) from error

    def _pages(self, since: datetime, **query: object) -> Iterator[api.Message]:
        """Report records newest first, down to `since` (the report's own order)."""
        for page in range(1, MAX_RECONCILE_PAGES + 1):
            report = self._report(page=page, **query)
            for record in report.messages:
                if record.created_at < since:
                    return
                yield record
            if len(report.messages) < REPORT_PAGE or page * REPORT_PAGE >= report.total:
                return
        too_long = errors.SmsTransportError("the delivery report is too long to reconcile")
        raise stops.Uncertain(too_long)

    def _report_of(self, mobile: str, since: datetime) -> list[api.Message]:
        return list(self._pages(since, mobile=mobile))

    def _report_since(self, since: datetime, mobiles: set[str]) -> list[api.Message]:
        return [record for record in self._pages(since) if record.mobile in mobiles]

    def _unclaimed_by_mobile(self, records: list[api.Message]) -> dict[str, list[api.Message]]:
        """Records of this template that none of our messages holds, per number, oldest first."""
        template_id = self.campaign.template.provider_id
        records = [record for record in records if record.template_id == template_id]
        claimed = set(
            Message.objects.filter(
                provider_message_id__in=[record.id for record in records]
            ).values_list("provider_message_id", flat=True)
        )
        by_mobile: dict[str, dict[int, api.Message]] = {}
        for record in records:
            if record.id not in claimed:
                # Keyed by id: paging while new messages arrive can show a record twice.
                by_mobile.setdefault(record.mobile, {})[record.id] = record
        return {
            mobile: sorted(found.values(), key=lambda record: (record.created_at, record.id))
            for mobile, found in by_mobile.items()
        }

    def _adopt(self, found: list[tuple[Message, api.Message]]) -> None:
        """Each message takes its report record's id and status, all in one transaction (a
        worker killed mid-call leaves up to a chunk to adopt: one commit, not a thousand),
        and the quota figures of the newest record are kept."""
        if not found:
            return
        adopted = 0
        now = timezone.now()
        with transaction.atomic():
            for message, record in found:
                status = fit_code(record.status or MessageStatus.PROCESSING, "message status")
                adopted += Message.objects.filter(
                    pk=message.pk, status=MessageStatus.SUBMITTING
                ).update(
                    status=status,
                    provider_message_id=record.id,
                    error_code="",
                    sent_at=record.sent_at,
                    units_billed=record.quantity if status == MessageStatus.SUCCESS else None,
                    status_changed_at=now,
                )
            Campaign.objects.filter(pk=self.campaign_id).update(
                accepted_count=F("accepted_count") + adopted
            )
        newest = max((record for _message, record in found), key=lambda r: r.created_at)
        record_quota(newest.owner)


def _take_oldest(candidates: list[api.Message], window_start: datetime) -> api.Message | None:
    """Remove and return the oldest candidate created within the window, if any."""
    for position, record in enumerate(candidates):
        if record.created_at >= window_start:
            return candidates.pop(position)
    return None
