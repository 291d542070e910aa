"""One active beat across hosts: django-celery-beat's scheduler under a lease in the database.

Every beat process runs this scheduler. At each tick it takes or renews the lease (one
conditional UPDATE: free, expired, or already ours); the holder schedules as usual and writes
its heartbeat, the others only wait and try again. A holder that dies stops renewing, so a
standby takes over within LEASE_S + CHECK_EVERY_S (under a minute). A holder that loses the
lease (its database writes stalled past LEASE_S) stops scheduling at its next tick.

Each run is claimed before it is sent, keyed by the job and its due time
(`backoffice.operations.scheduled_runs`), and `last_run_at` is written when it is sent, so a
takeover, or an overlap of two holders, sends nothing twice. A beat killed between its claim
and the send loses that one run (at most once: the next due time runs as usual).
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from django.db import close_old_connections
from django.db.models import Q
from django.utils import timezone
from django_celery_beat.schedulers import DatabaseScheduler

from backoffice.models import SchedulerLease
from backoffice.operations import heartbeats, scheduled_runs

logger = logging.getLogger(__name__)

LEASE_NAME = "beat"
LEASE_S = 30
# How often a standby tries the lease, and the longest an active beat sleeps between ticks
# (so the lease is renewed well within LEASE_S).
CHECK_EVERY_S = 5
PURGE_EVERY_S = 3600  # old run claims deleted this often


def take_lease(holder: str, *, lease_s: int = LEASE_S) -> bool:
    """Take or renew the lease for `holder`; False while another live holder has it."""
    now = timezone.now()
    SchedulerLease.objects.get_or_create(name=LEASE_NAME)
    taken = SchedulerLease.objects.filter(
        Q(holder=holder) | Q(holder="") | Q(expires_at__lt=now) | Q(expires_at__isnull=True),
        name=LEASE_NAME,
    ).update(holder=holder, expires_at=now + timedelta(seconds=lease_s))
    return bool(taken)


def release_lease(holder: str) -> None:
    SchedulerLease.objects.filter(name=LEASE_NAME, holder=holder).update(
        holder="", expires_at=None
    )


def lease_holder() -> str:
    lease = SchedulerLease.objects.filter(name=LEASE_NAME).first()
    return lease.holder if lease and lease.expires_at and lease.expires_at > timezone.now() else ""


class LeasedDatabaseScheduler(DatabaseScheduler):
    """DatabaseScheduler that schedules only while it holds the lease."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.holder = heartbeats.process_name()
        self.active = False
        self.renewed_at = 0.0
        self.purged_at = 0.0
        super().__init__(*args, **kwargs)
        self.max_interval: float = min(self.max_interval or CHECK_EVERY_S, CHECK_EVERY_S)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        # Tick returns 0 while due entries remain: renew (and write the heartbeat) only every
        # CHECK_EVERY_S, not at each of those.
        if time.monotonic() - self.renewed_at >= CHECK_EVERY_S or not self.active:
            self._renew()
        if not self.active:
            return CHECK_EVERY_S
        self.step("renewed")
        due_in: float = super().tick(*args, **kwargs)
        return min(due_in, CHECK_EVERY_S)

    def apply_entry(self, entry: Any, producer: Any = None) -> None:
        """Send `entry` unless its due time was already claimed (by this beat or another)."""
        due_at = scheduled_runs.due_time(entry, self.app.now())
        try:
            if scheduled_runs.sent_since_read(entry):
                logger.info("beat: %s was sent since this beat read it; not due yet, skipped",
                            entry.name)
                return
            claimed = scheduled_runs.claim(entry.name, due_at, self.holder)
        except Exception:
            logger.exception("beat: could not claim %s due %s; not sent", entry.name, due_at)
            return
        if not claimed:
            logger.info("beat: %s due %s was already sent; skipped", entry.name,
                        due_at.isoformat())
            return
        self.step("claimed")
        super().apply_entry(entry, producer=producer)
        self.step("sent")
        try:
            scheduled_runs.mark_sent(entry.name, due_at, entry.model.last_run_at)
        except Exception:
            logger.exception("beat: could not record that %s was sent", entry.name)
        self.step("recorded")

    def populate_heap(self, *args: Any, **kwargs: Any) -> None:
        """django-celery-beat's `schedule` may find the schedule changed while the heap is
        being built (a beat that scheduled before, taking over after another beat started)
        and mark the heap invalid; the heap is then built from that very reading. Left set, the
        mark made the next tick rebuild the heap from entries read before the first send,
        so the first due job was sent again: the claim stopped it within its due time, not
        when the two ticks fell on either side of a slot's end (it ran twice, 160 ms apart)."""
        super().populate_heap(*args, **kwargs)
        self._heap_invalidated = False

    def step(self, name: str) -> None:
        """A point between the steps of sending a run (tests stop the beat here)."""

    def _renew(self) -> None:
        close_old_connections()
        try:
            holds = take_lease(self.holder)
            if holds:
                heartbeats.beat("beat", self.holder)
        except Exception:
            logger.exception("beat: could not reach the lease; standing by")
            holds = False
        self.renewed_at = time.monotonic()
        if holds and time.monotonic() - self.purged_at > PURGE_EVERY_S:
            self.purged_at = time.monotonic()
            try:
                scheduled_runs.forget_old()
            except Exception:
                logger.exception("beat: could not delete old run claims")
        if holds and not self.active:
            # Read the schedule afresh: the previous holder's last runs are in the database,
            # not in what this process read at start-up.
            self._initial_read = True
            self._heap = None
        if holds != self.active:
            logger.info("beat %s: %s", self.holder, "active" if holds else "standing by")
            self.active = holds

    def close(self) -> None:
        if self.active:
            try:
                release_lease(self.holder)
                heartbeats.forget("beat", self.holder)
            except Exception:
                logger.exception("beat: could not release the lease")
        super().close()
