"""Each scheduled job runs once per due time, whoever holds the beat lease.

The active beat claims a run before sending it: one INSERT of (job, due time), unique in the
database, so a beat that takes over and computes the same due time finds it taken and sends
nothing. The due time must come out the same in every beat, whatever each has in memory:

- an interval job's due time is its slot on a grid from the epoch (every 30 s: :00, :30...),
  so two beats whose `last_run_at` differ still name the same slot;
- a crontab job's due time is its occurrence (whole minutes), found from the `last_run_at`
  the beat has read, which a takeover reads from the database.

`last_run_at` is written to the job's row as soon as the job is sent (django-celery-beat alone
writes it only at its periodic sync), so a standby that takes over reads the real last run.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import schedules
from django.db import IntegrityError, transaction
from django.utils import timezone
from django_celery_beat.models import PeriodicTask

from backoffice.models import ScheduledRun

KEPT = timedelta(days=7)


def due_time(entry: Any, now: datetime) -> datetime:
    """The due time a run of `entry` (a django-celery-beat ModelEntry, as it was before this
    run: its `last_run_at` the previous run's) stands for."""
    schedule = entry.schedule
    if isinstance(schedule, schedules.crontab):
        moment = now + schedule.remaining_estimate(entry.last_run_at)
        return moment.replace(second=0, microsecond=0) + (
            timedelta(minutes=1) if moment.second >= 30 else timedelta(0))
    if isinstance(schedule, schedules.schedule):
        every = schedule.seconds  # run_every, in seconds
        slot = math.floor(now.timestamp() / every) * every
        return datetime.fromtimestamp(slot, tz=UTC)
    return now.replace(microsecond=0)  # solar or clocked: rare here, to the second


def sent_since_read(entry: Any) -> bool:
    """Whether `entry` was sent after this beat read it (its row's `last_run_at` is newer than
    the entry's) and is not due again from that send: the entry is stale and the send would
    repeat the one just made, possibly in the next due time (a heap rebuilt from an old
    reading)."""
    fresh = PeriodicTask.objects.filter(name=entry.name).values_list(
        "last_run_at", flat=True).first()
    known = entry.last_run_at
    if fresh is None or (known is not None and fresh <= known):
        return False
    return not entry.schedule.is_due(fresh).is_due


def claim(job: str, due_at: datetime, holder: str) -> bool:
    """True for the one beat that may send `job` for `due_at`."""
    try:
        with transaction.atomic():
            ScheduledRun.objects.create(job=job, due_at=due_at, holder=holder,
                                        claimed_at=timezone.now())
    except IntegrityError:
        return False
    return True


def mark_sent(job: str, due_at: datetime, last_run_at: datetime | None) -> None:
    """The job is sent: the claim says so and the job's row gets its `last_run_at` now."""
    ScheduledRun.objects.filter(job=job, due_at=due_at).update(sent_at=timezone.now())
    if last_run_at is not None:
        # update(), not save(): no signal, so the other beats do not reload the schedule.
        PeriodicTask.objects.filter(name=job).update(last_run_at=last_run_at)


def forget_old() -> int:
    deleted, _by_model = ScheduledRun.objects.filter(
        due_at__lt=timezone.now() - KEPT).delete()
    return deleted
