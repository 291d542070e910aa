"""The account balance: snapshots from getMyBalance and the history drawn as a chart."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db.models import Max, Subquery
from django.db.models.functions import TruncDate
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from topup.chart import Series, line_chart_svg
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


def history_chart(snapshots: list[BalanceSnapshot]) -> str:
    """The balance and the available balance over time, as inline SVG."""

    def when(moment: datetime) -> str:
        return formats.date_format(timezone.localtime(moment), "m-d H:i")

    def money(value: Decimal | float | int) -> str:
        return formats.number_format(Decimal(str(value)), 2)

    def tick(value: float, step: float) -> str:
        # As many decimals as the round step needs: 1,000 not 1,000.00, but 0.5 stays.
        decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
        return formats.number_format(Decimal(str(value)), decimals)

    return line_chart_svg(
        [
            Series(_("Balance"), [(s.taken_at, s.balance) for s in snapshots], "balance"),
            Series(_("Available"), [(s.taken_at, s.avail_balance) for s in snapshots],
                   "available"),
        ],
        title=_("Balance history (yuan)"),
        format_time=when,
        format_value=money,
        format_tick=tick,
        empty_text=_("No balance recorded yet."),
    )
