"""Counts of SMS messages: by status for the metrics endpoint, and today's figures and the
per-day sends for the dashboard tile and the SMS home page.

Today's figures are counted at most once a minute: counting a busy day's messages on every page
load would cost more than the page. They are cached in Django's cache (Redis, or the database
cache when embedded) per local day, so the figures are at most FIGURES_TTL_S old and a new day
starts from fresh counts.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from backoffice.operations import soft_cache
from sms.models import Message, MessageStatus

FIGURES_TTL_S = 60
CHART_DAYS = 14  # as backoffice.ui.tiles.CHART_DAYS, which services do not import


def messages_by_status() -> dict[str, int]:
    """Campaign messages by status, for the metrics endpoint."""
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
    """Drop today's cached figures and the chart's past days (the next page load counts
    again)."""
    today = timezone.localdate()
    soft_cache.delete(_key(today), *(_day_key(today - timedelta(days=back))
                                     for back in range(1, CHART_DAYS)))


# --- the dashboard's 14-day chart ------------------------------------------------------------

# A day is counted once and kept: a day that is over gains no more sends, except yesterday,
# whose late-settled submissions (a number in doubt at midnight) are counted again hourly.
DAY_KEPT_S = 15 * 24 * 3600
YESTERDAY_KEPT_S = 3600


def _day_key(day: date) -> str:
    return f"sms:sent-on:{day.isoformat()}"


def _count_days(first: date, last: date) -> dict[date, int]:
    """Messages accepted on each day from `first` to `last` (both included): one grouped query
    over a range of the submitted_at index (sms_message_submitted). Usually the range is one
    day (yesterday's); the whole chart only when nothing was kept yet."""
    start = timezone.make_aware(datetime.combine(first, time.min))
    end = timezone.make_aware(datetime.combine(last + timedelta(days=1), time.min))
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


def sent_per_day(days: list[date]) -> dict[date, int]:
    """Messages sent (accepted by the provider) on each of `days`, the last of which is today.

    Past days come from the cache (one round trip for all), and only the days missing there are
    counted; today's figure is `today_counts()`'s, the same as the tile's "Sent today".
    """
    today, past = days[-1], days[:-1]
    kept = soft_cache.read_many(_day_key(day) for day in past)  # a cache down: counted
    counts = {day: kept[_day_key(day)] for day in past if _day_key(day) in kept}
    missing = [day for day in past if day not in counts]
    if missing:
        counted = _count_days(missing[0], missing[-1])
        counts.update(counted)
        yesterday = today - timedelta(days=1)
        soft_cache.write_many({_day_key(day): n for day, n in counted.items()
                               if day != yesterday}, DAY_KEPT_S)
        if yesterday in counted:
            soft_cache.write(_day_key(yesterday), counted[yesterday], YESTERDAY_KEPT_S)
    counts[today] = today_counts()["sent"]
    return counts
