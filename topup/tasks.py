"""Celery tasks of the top-up app: thin, idempotent, taking primary keys; the work is in services.

Every task may run twice (acks_late redelivery, a beat run overlapping a slow queue); the
services make that harmless: chargeOrder is guarded by the `created -> submitted` claim, a query
only ever moves an order forward.
"""

from __future__ import annotations

import logging
from datetime import date, timedelta

from celery import shared_task
from django.utils import timezone

from backoffice.operations.provider import ProviderNotConfigured
from topup import services
from topup.models import SnapshotSource
from topup.services import TopupError

logger = logging.getLogger(__name__)


@shared_task(acks_late=True)
def submit_order_task(order_id: int) -> str | None:
    """Send chargeOrder for one order placed by staff, the bulk run or the API."""
    try:
        return services.submit_order(order_id)
    except (TopupError, ProviderNotConfigured) as error:
        # Nothing was sent and the order is `created` again; the beat job re-queues it.
        logger.warning("top-up order %s not sent yet: %s", order_id, error)
        return None


@shared_task(acks_late=True)
def check_order_task(order_id: int) -> str | None:
    """Query one open order and apply the answer."""
    try:
        return services.check_order(order_id)
    except ProviderNotConfigured as error:
        logger.warning("top-up order %s not queried: %s", order_id, error)
        return None


@shared_task(acks_late=True)
def poll_orders_task() -> dict[str, int]:
    """Beat: queue a query for every open order that is due, and re-queue lost submissions."""
    due = services.due_orders()
    for order_id in due.to_check:
        check_order_task.delay(order_id)
    for order_id in due.to_submit:
        submit_order_task.delay(order_id)
    return {"checked": len(due.to_check), "submitted": len(due.to_submit)}


@shared_task(acks_late=True)
def snapshot_balance_task() -> str | None:
    """Beat: record the balance, for the chart, the tile and the daily report."""
    try:
        snapshot = services.take_snapshot(SnapshotSource.SCHEDULE)
    except (TopupError, ProviderNotConfigured) as error:
        logger.warning("top-up balance not recorded: %s", error)
        return None
    return str(snapshot.avail_balance)


@shared_task(acks_late=True)
def daily_report_task(day: str | None = None) -> int:
    """Beat (after midnight): the reconciliation report of `day` (ISO date), default yesterday."""
    report_day = date.fromisoformat(day) if day else (
        timezone.localdate() - timedelta(days=1))
    report = services.build_report(report_day)
    return report.discrepancies.count()


@shared_task(acks_late=True)
def process_callbacks_task() -> int:
    """Apply the genuine callbacks stored and not applied yet (queued by the callback endpoint
    after a burst, and by beat as a safety net)."""
    return services.drain_receipts()


@shared_task(acks_late=True)
def judge_receipts_again_task() -> int:
    """Judge again the callbacks whose judging failed in an outage, applying the genuine."""
    return services.judge_receipts_again()


@shared_task(acks_late=True)
def report_unknown_tokens_task() -> int:
    """One audit entry per address for each finished minute with unknown API tokens (each
    minute claimed once, so an overlapping run writes nothing twice)."""
    return services.report_unknown_tokens()
