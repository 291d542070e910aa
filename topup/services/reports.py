"""The daily reconciliation report: our orders, the provider's answers and the balance movement
of one day side by side, with every discrepancy listed for a person to look at.

What is compared:
- callbacks stored but not applied yet are applied first;
- every order placed that day must be final; open ones are queried once more first;
- orders settled by a person, or that drew conflicting answers, are queried again and the
  provider's current answer is compared with our final state (the state is never changed
  here: a final state is sticky, a mismatch is for a person);
- callbacks of the day with a bad sign or an unknown custno are listed;
- the balance movement between the snapshots around the day must equal the prices of the
  orders that succeeded in between (a difference is a recharge, or a price that differs from
  what the provider charges).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext_noop

from backoffice.annotations import StaffUser
from topup.client import TopupError
from topup.models import (
    FINAL_STATES,
    BalanceSnapshot,
    CallbackReceipt,
    DiscrepancyKind,
    Order,
    OrderState,
    ReceiptOutcome,
    ReconciliationDiscrepancy,
    ReconciliationReport,
    SnapshotSource,
)
from topup.rules import OrderOutcome, Remedy
from topup.services.balance import take_snapshot
from topup.services.callbacks import process_pending_receipts
from topup.services.checking import check_order, seek_paused_until
from topup.services.connection import build_client

logger = logging.getLogger(__name__)

S = OrderState
CENT = Decimal("0.01")
OUTCOME_STATE = {OrderOutcome.SUCCESS: S.SUCCESS, OrderOutcome.FAILED: S.FAILED}


@dataclass
class Findings:
    items: list[dict[str, Any]] = field(default_factory=list)
    queried: int = 0
    provider_refused: bool = False  # 510 or no answer: stop asking, list what was not asked

    def add(self, kind: str, detail: str, **fields: Any) -> None:
        self.items.append({"kind": kind, "detail": detail, **fields})


def _yuan(amount: Decimal | None) -> Decimal:
    # SQLite's SUM loses the scale (3 instead of 3.00); amounts are always shown in cents.
    return (amount or Decimal("0")).quantize(CENT)


def day_bounds(day: date) -> tuple[datetime, datetime]:
    start = timezone.make_aware(datetime.combine(day, time.min))
    return start, start + timedelta(days=1)


def build_report(day: date, user: StaffUser | None = None) -> ReconciliationReport:
    """Make (or remake) the report of `day`, in the back-office's time zone."""
    start, end = day_bounds(day)
    findings = Findings()
    # Whatever the provider told us and was not applied yet (a lost task) counts first.
    process_pending_receipts()
    orders = Order.objects.filter(created_at__gte=start, created_at__lt=end)
    _settle_open_orders(orders, findings)
    _compare_with_provider(orders, findings)
    _list_receipts(start, end, findings)
    balance = _balance(start, end, findings)
    counts = {
        "order_count": orders.count(),
        "success_count": orders.filter(state=S.SUCCESS).count(),
        "failed_count": orders.filter(state=S.FAILED).count(),
        "open_count": orders.exclude(state__in=FINAL_STATES).count(),
        "spent": _yuan(orders.filter(state=S.SUCCESS).aggregate(t=Sum("price"))["t"]),
    }
    with transaction.atomic():
        report, _created = ReconciliationReport.objects.update_or_create(
            day=day, defaults={**counts, **balance, "queried_count": findings.queried,
                               "made_by": user})
        report.discrepancies.all().delete()
        ReconciliationDiscrepancy.objects.bulk_create(
            ReconciliationDiscrepancy(report=report, **item) for item in findings.items)
    return report


def _settle_open_orders(orders: QuerySet[Order], findings: Findings) -> None:
    for order in orders.exclude(state__in=FINAL_STATES).order_by("created_at"):
        if not findings.provider_refused and order.state != S.CREATED:
            findings.queried += 1
            try:
                check_order(order.pk)
            except TopupError as error:
                logger.warning("report: could not query %s: %s", order.custno, error)
            findings.provider_refused = seek_paused_until() is not None
            order.refresh_from_db()
        if order.state not in FINAL_STATES:
            findings.add(DiscrepancyKind.NOT_FINAL, gettext_noop("The order is not final."),
                         order=order, ours=order.state, theirs=order.last_code)


def _compare_with_provider(orders: QuerySet[Order], findings: Findings) -> None:
    doubtful = orders.filter(state__in=FINAL_STATES).filter(
        Q(settled_manually=True) | Q(conflict=True)).order_by("created_at")
    client = None
    for order in doubtful:
        if order.settled_manually:
            findings.add(DiscrepancyKind.MANUAL, gettext_noop("Settled by a person."), order=order,
                         ours=order.state)
        if order.conflict:
            findings.add(DiscrepancyKind.CONFLICT, gettext_noop(
                "The provider gave answers that contradict each other; see the timeline."),
                order=order, ours=order.state)
        if findings.provider_refused:
            findings.add(DiscrepancyKind.QUERY_FAILED, gettext_noop("Not asked again: the provider "
                                                          "refused queries."), order=order)
            continue
        client = client or build_client()
        findings.queried += 1
        try:
            answer = client.seek_order(order.custno, requesttime=order.submitted_at)
        except TopupError as error:
            findings.provider_refused = True
            findings.add(DiscrepancyKind.QUERY_FAILED, str(error)[:500], order=order)
            continue
        if answer.remedy is not Remedy.NONE:
            findings.provider_refused = answer.remedy is Remedy.BACK_OFF
            findings.add(DiscrepancyKind.QUERY_FAILED, answer.info[:500], order=order,
                         theirs=answer.code)
            continue
        theirs = OUTCOME_STATE.get(answer.outcome)
        if theirs != order.state:
            findings.add(DiscrepancyKind.STATE_MISMATCH, gettext_noop(
                "Our final state differs from the provider's answer."), order=order,
                ours=order.state, theirs=f"{answer.code} {answer.info}"[:100])


def _list_receipts(start: datetime, end: datetime, findings: Findings) -> None:
    receipts = CallbackReceipt.objects.filter(received_at__gte=start, received_at__lt=end)
    for receipt in receipts.filter(outcome=ReceiptOutcome.INVALID_SIGN):
        findings.add(DiscrepancyKind.INVALID_SIGN,
                     gettext_noop("A callback with a bad sign was refused."),
                     receipt=receipt, theirs=receipt.custno[:100])
    for receipt in receipts.filter(unknown_custno=True):
        findings.add(DiscrepancyKind.UNKNOWN_CUSTNO, gettext_noop(
            "A genuine callback names an order we do not have."), receipt=receipt,
            theirs=receipt.custno[:100])


def _balance(start: datetime, end: datetime, findings: Findings) -> dict[str, Any]:
    now = timezone.now()
    if end > now:
        # A report of today: the end of the window is now, measured now.
        try:
            take_snapshot(SnapshotSource.REPORT)
        except TopupError as error:
            logger.warning("report: no balance snapshot: %s", error)
        end = timezone.now()
    first = (BalanceSnapshot.objects.filter(taken_at__lte=start).order_by("-taken_at", "-id")
             .first() or BalanceSnapshot.objects.filter(taken_at__gt=start, taken_at__lt=end)
             .order_by("taken_at", "id").first())
    last = BalanceSnapshot.objects.filter(taken_at__lte=end).order_by("-taken_at", "-id").first()
    if first is None or last is None or last.taken_at <= first.taken_at:
        findings.add(DiscrepancyKind.NO_BALANCE, gettext_noop(
            "Not enough balance snapshots around the day to check the balance movement."))
        return {"balance_start": None, "balance_end": None, "balance_start_at": None,
                "balance_end_at": None, "expected_movement": None}
    spent = _yuan(Order.objects.filter(
        state=S.SUCCESS, finished_at__gt=first.taken_at, finished_at__lte=last.taken_at,
    ).aggregate(t=Sum("price"))["t"])
    expected = -spent
    movement = last.balance - first.balance
    if movement != expected:
        findings.add(
            DiscrepancyKind.BALANCE,
            gettext_noop("The balance moved by a different amount than the succeeded orders "
                         "cost: a recharge, or a price that differs from the provider's."),
            ours=str(expected), theirs=str(movement),
        )
    return {"balance_start": first.balance, "balance_end": last.balance,
            "balance_start_at": first.taken_at, "balance_end_at": last.taken_at,
            "expected_movement": expected}
