"""Counts of jobs, shared by the home page and the dashboard tile."""

from __future__ import annotations

from datetime import datetime, time

from django.db.models import Count
from django.utils import timezone

from media.models import ProcessingJob


def start_of_today() -> datetime:
    """Midnight in the back-office's time zone (TIME_ZONE), as an aware datetime."""
    return timezone.make_aware(datetime.combine(timezone.localdate(), time.min))


def jobs_today_by_state() -> dict[str, int]:
    rows = (ProcessingJob.objects.filter(created_at__gte=start_of_today())
            .values_list("state").annotate(n=Count("id")).values_list("state", "n"))
    return dict(rows)
