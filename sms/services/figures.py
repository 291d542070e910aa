"""Today's message figures for the dashboard tile and the SMS home page, counted at most once
a minute: counting a busy day's messages on every page load would cost more than the page.

Cached in Django's cache (Redis, or the database cache when embedded) per local day, so the
figures are at most FIGURES_TTL_S old and a new day starts from fresh counts.
"""

from __future__ import annotations

import logging
from datetime import date, datetime, time

from django.core.cache import cache
from django.db.models import Count, Q
from django.utils import timezone

from sms.models import Message, MessageStatus

logger = logging.getLogger(__name__)

FIGURES_TTL_S = 60


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
    """Drop today's cached figures (the next page load counts again)."""
    cache.delete(_key(timezone.localdate()))
