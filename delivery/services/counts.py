"""Counts of purges for the delivery home page and the dashboard tile: today's totals and the
chart's sends per day."""

from __future__ import annotations

from datetime import date, datetime

from django.db.models import Count, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from delivery.models import PurgeRequest, PurgeStatus


def purged_today() -> tuple[int, int]:
    """(requests, URLs) sent successfully since local midnight."""
    start = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    done = PurgeRequest.objects.filter(status=PurgeStatus.SENT, attempted_at__gte=start)
    totals = done.aggregate(requests=Count("id"), urls=Sum("url_count"))  # one query for both
    return totals["requests"], totals["urls"] or 0


def purges_per_day(since: datetime) -> dict[date, int]:
    """Purge requests sent successfully on each local day since `since` (a day without any
    is absent): one grouped query over the attempted_at index, as `purged_today` counts."""
    rows = (
        PurgeRequest.objects.filter(status=PurgeStatus.SENT, attempted_at__gte=since)
        .annotate(day=TruncDate("attempted_at")).values("day")
        .annotate(n=Count("id")).values_list("day", "n")
    )
    return dict(rows)
