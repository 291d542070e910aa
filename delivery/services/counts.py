"""Counts of purges for the delivery home page and the dashboard tile: today's totals and the
chart's sends per day, for one domain (the purges that touched it)."""

from __future__ import annotations

from datetime import date, datetime

from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from console.models import Domain
from delivery.models import PurgeRequest, PurgeStatus


def purges_of(domain: Domain) -> QuerySet[PurgeRequest]:
    """Purges that touched `domain` (a manual one spanning several counts for each)."""
    return PurgeRequest.objects.filter(domains=domain)


def purged_today(domain: Domain) -> tuple[int, int]:
    """(requests, URLs) sent successfully since local midnight."""
    start = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    done = purges_of(domain).filter(status=PurgeStatus.SENT, attempted_at__gte=start)
    totals = done.aggregate(requests=Count("id"), urls=Sum("url_count"))  # one query for both
    return totals["requests"], totals["urls"] or 0


def purges_per_day(domain: Domain, since: datetime) -> dict[date, int]:
    """Purge requests sent successfully on each local day since `since` (a day without any
    is absent): one grouped query over the attempted_at index, as `purged_today` counts."""
    rows = (
        purges_of(domain).filter(status=PurgeStatus.SENT, attempted_at__gte=since)
        .annotate(day=TruncDate("attempted_at")).values("day")
        .annotate(n=Count("id")).values_list("day", "n")
    )
    return dict(rows)
