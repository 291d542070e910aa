"""Today's message figures for the dashboard tile and the SMS home page, counted at most once
a minute: counting a busy day's messages on every page load would cost more than the page.

Cached in Django's cache (Redis, or the database cache when embedded) per local day, so the
figures are at most FIGURES_TTL_S old and a new day starts from fresh counts.
"""

from __future__ import annotations

import logging
from datetime import date, datetime, time, timedelta

from django.core.cache import cache
from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from sms.models import Message, MessageStatus

logger = logging.getLogger(__name__)

FIGURES_TTL_S = 60
CHART_DAYS = 14  # as backoffice.tiles.CHART_DAYS, which services do not import


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
    try:
        counts = cache.get(key)
    except Exception:  # a cache that is down must not take the pages with it
        logger.warning("SMS figures: cache unavailable, counting", exc_info=True)
        return _count(day)
    if counts is None:
        counts = _count(day)
        try:
            cache.set(key, counts, FIGURES_TTL_S)
        except Exception:
            logger.warning("SMS figures: could not cache today's figures", exc_info=True)
    return counts


def forget_today() -> None:
    """Drop today's cached figures and the chart's past days (the next page load counts
    again)."""
    today = timezone.localdate()
    cache.delete_many([_key(today), _past_key(today - timedelta(days=CHART_DAYS - 1), today)])


# --- the dashboard's 14-day chart ------------------------------------------------------------

PAST_DAYS_TTL_S = 3600


def _past_key(first: date, today: date) -> str:
    return f"sms:sent-per-day:{first.isoformat()}:{today.isoformat()}"


def _count_past(first: date, today: date) -> dict[str, int]:
    # One grouped query over a range of the submitted_at index (sms_message_submitted), never
    # the table whole; keyed by ISO day so that the cache stores plain values.
    start = timezone.make_aware(datetime.combine(first, time.min))
    end = timezone.make_aware(datetime.combine(today, time.min))
    rows = (
        Message.objects.filter(submitted_at__gte=start, submitted_at__lt=end,
                               provider_message_id__isnull=False)
        .annotate(day=TruncDate("submitted_at"))
        .values("day").annotate(n=Count("id")).values_list("day", "n")
    )
    return {day.isoformat(): n for day, n in rows}


def sent_per_day(days: list[date]) -> dict[date, int]:
    """Messages sent (accepted by the provider) on each of `days`, the last of which is today.

    Days before today no longer change, so they are counted once and kept an hour (the key
    names today, so a new day counts again); today's figure is `today_counts()`'s, the same
    as the tile's "Sent today".
    """
    today = days[-1]
    key = _past_key(days[0], today)
    try:
        past = cache.get(key)
    except Exception:  # a cache that is down must not take the dashboard with it
        logger.warning("SMS figures: cache unavailable, counting", exc_info=True)
        past = None
    if past is None:
        past = _count_past(days[0], today)
        try:
            cache.set(key, past, PAST_DAYS_TTL_S)
        except Exception:
            logger.warning("SMS figures: could not cache the past days' counts", exc_info=True)
    counts = {date.fromisoformat(day): n for day, n in past.items()}
    counts[today] = today_counts()["sent"]
    return counts
