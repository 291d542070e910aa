"""The account balance: snapshots from getMyBalance, and their history (drawn by the balance
page's template tag, `topup.templatetags.topup_charts`)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db.models import Max, Subquery
from django.db.models.functions import TruncDate
from django.utils import timezone

from topup.models import BalanceSnapshot, SnapshotSource
from topup.services.connection import build_client


def take_snapshot(source: SnapshotSource) -> BalanceSnapshot:
    """Ask the provider for the balance now and keep the answer; TopupError propagates."""
    answer = build_client().get_my_balance()
    return BalanceSnapshot.objects.create(
        balance=answer.balance, freeze=answer.freeze, avail_balance=answer.avail_balance,
        source=source,
    )


def latest_snapshot() -> BalanceSnapshot | None:
    return BalanceSnapshot.objects.order_by("-taken_at", "-id").first()


def history(days: int, max_points: int = 240) -> list[BalanceSnapshot]:
    """Snapshots of the last `days`, thinned evenly to at most `max_points` (ends kept)."""
    since = timezone.now() - timedelta(days=days)
    snapshots = list(BalanceSnapshot.objects.filter(taken_at__gte=since).order_by("taken_at",
                                                                                   "id"))
    if len(snapshots) <= max_points:
        return snapshots
    step = (len(snapshots) - 1) / (max_points - 1)
    return [snapshots[round(i * step)] for i in range(max_points)]


def daily_balance(since: datetime) -> dict[date, Decimal]:
    """The available balance at the end of each local day since `since` (its last snapshot;
    a day without one is absent), from the same snapshots as the balance page's chart, in
    one query: the newest snapshot id per day, then those rows."""
    last_of_day = (
        BalanceSnapshot.objects.filter(taken_at__gte=since)
        .annotate(day=TruncDate("taken_at")).values("day")
        .annotate(last=Max("id")).values("last")
    )
    return {
        timezone.localdate(snapshot.taken_at): snapshot.avail_balance
        for snapshot in BalanceSnapshot.objects.filter(id__in=Subquery(last_of_day))
    }
