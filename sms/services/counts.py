"""Counts of SMS messages: by status for the metrics endpoint, and today's figures and the
per-day sends for the dashboard tile and the SMS home page.

Today's figures are counted at most once a minute: counting a busy day's messages on every page
load would cost more than the page. They are cached in Django's cache (Redis, or the database
cache when embedded) per local day, so the figures are at most FIGURES_TTL_S old and a new day
starts from fresh counts. The chart's past days are kept in the database (DailySends): a day
that is over changes little or not at all, and recounting a fortnight whenever the cache was
emptied cost seconds at ten million messages.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from backoffice.operations import soft_cache
from sms.models import DailySends, Message, MessageStatus
from sms.services import status_counts

FIGURES_TTL_S = 60
CHART_DAYS = 14  # as backoffice.ui.tiles.CHART_DAYS, which services do not import


def messages_by_status() -> dict[str, int]:
    """Campaign messages by status, for the metrics endpoint: summed from the counts the
    database keeps (a scrape every 15 s counted the whole table: 1.5 s at ten million
    messages), counted where it keeps none."""
    kept = status_counts.by_status()
    if kept is not None:
        return kept
    return dict(Message.objects.values_list("status").annotate(n=Count("pk")).order_by())


def _key(day: date) -> str:
    return f"sms:today-figures:{day.isoformat()}"


def _count(day: date) -> dict[str, int]:
    start = timezone.make_aware(datetime.combine(day, time.min))
    return Message.objects.filter(submitted_at__gte=start).aggregate(
        sent=Count("id", filter=Q(provider_message_id__isnull=False)),
        success=Count("id", filter=Q(status=MessageStatus.SUCCESS)),
        failed=Count("id", filter=Q(status=MessageStatus.FAILED)),
    )


def today_counts() -> dict[str, int]:
    """Messages submitted today (local day): sent (accepted), delivered and failed."""
    day = timezone.localdate()
    key = _key(day)
    kept: dict[str, int] | None = soft_cache.read(key)  # as written below, or nothing
    if kept is not None:
        return kept
    counts = _count(day)
    soft_cache.write(key, counts, FIGURES_TTL_S)
    return counts


def forget_today() -> None:
    """Drop today's figures and the chart's past days (the next page load counts again)."""
    today = timezone.localdate()
    soft_cache.delete(_key(today))
    DailySends.objects.filter(day__gte=today - timedelta(days=CHART_DAYS)).delete()


# --- the dashboard's 14-day chart ------------------------------------------------------------

# A day's count is kept in DailySends. Until a whole day has passed since it ended, a day may
# still gain late-settled submissions (a number in doubt at midnight): its figure is counted
# again when it is older than this.
RECOUNT_AFTER = timedelta(hours=1)


def _count_days(first: date, last: date) -> dict[date, int]:
    """Messages accepted on each day from `first` to `last` (both included): one grouped query
    over a range of the submitted_at index (sms_message_submitted)."""
    start = _midnight(first)
    end = _midnight(last + timedelta(days=1))
    rows = (
        Message.objects.filter(submitted_at__gte=start, submitted_at__lt=end,
                               provider_message_id__isnull=False)
        .annotate(day=TruncDate("submitted_at"))
        .values("day").annotate(n=Count("id")).values_list("day", "n")
    )
    found = dict(rows)
    span = (last - first).days + 1
    return {first + timedelta(days=i): found.get(first + timedelta(days=i), 0)
            for i in range(span)}


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def _needs_counting(day: date, counted_at: datetime | None, now: datetime) -> bool:
    if counted_at is None:
        return True
    settled = counted_at >= _midnight(day + timedelta(days=2))
    return not settled and now - counted_at > RECOUNT_AFTER


def sent_per_day(days: list[date]) -> dict[date, int]:
    """Messages sent (accepted by the provider) on each of `days`, the last of which is today.

    Past days are read from DailySends, where a day not there yet, or not settled and counted
    over an hour ago, is counted (one query for them all) and written back; today's figure is
    `today_counts()`'s, the same as the tile's "Sent today".
    """
    today, past = days[-1], days[:-1]
    now = timezone.now()
    counts: dict[date, int] = {}
    counted_at: dict[date, datetime] = {}
    for day, sent, at in DailySends.objects.filter(day__in=past).values_list(
            "day", "sent", "counted_at"):
        counts[day], counted_at[day] = sent, at
    stale = [day for day in past if _needs_counting(day, counted_at.get(day), now)]
    if stale:
        counted = _count_days(stale[0], stale[-1])
        counts.update(counted)
        DailySends.objects.bulk_create(
            [DailySends(day=day, sent=n, counted_at=now) for day, n in counted.items()],
            update_conflicts=True, unique_fields=["day"], update_fields=["sent", "counted_at"])
    counts[today] = today_counts()["sent"]
    return counts
