"""The lease of a folder job (FolderDeletion, FolderTransfer): one run at a time, and a run
whose worker died is noticed and handed to another worker, as SMS does for its campaigns.

A run takes the job with a conditional update (queued, or running with its lease run out) and
writes its progress only while the lease is still its own (`LeaseLost` otherwise: another run
took over, this one stops). A run in a worker is *watched*: a `LeaseRenewer` thread renews a short
lease (WATCHED_LEASE) every RENEW_EVERY_S whatever the run is waiting on, so a SIGKILLed
worker's job is free again within WATCHED_LEASE, and the sweep (`storage-resume-folder-jobs`,
every SWEEP_EVERY_S) queues it again. A run inside a transaction (a test's, a caller's atomic
block) cannot be seen by the keeper's connection: it takes the long UNWATCHED_LEASE, renewed by
its own progress writes.

A job still `queued` STORAGE_FOLDER_JOB_STALE_S after it was asked for (or last sent again) lost
its message (the broker was down, or Redis lost it on a restart): the sweep sends it again.
A second delivery of the same job finds the lease taken and does nothing.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection
from django.db.models import F, Q
from django.utils import timezone

from backoffice.operations.lease_renewal import LeaseRenewer
from storage.models import FolderDeletion, FolderTransfer

logger = logging.getLogger(__name__)

Job = TypeVar("Job", FolderDeletion, FolderTransfer)

WATCHED_LEASE = timedelta(seconds=20)
RENEW_EVERY_S = 5.0
UNWATCHED_LEASE = timedelta(minutes=10)
SWEEP_EVERY_S = 15.0  # storage.schedule's "storage-resume-folder-jobs"
# A job whose runs keep dying (a worker killed by what the job does) is given up, not taken
# for ever.
MAX_CLAIMS = 10


class LeaseLost(Exception):
    """The run no longer holds its job's lease (another run took over): it stops."""


def stale_after() -> timedelta:
    return timedelta(seconds=settings.STORAGE_FOLDER_JOB_STALE_S)


def watched() -> bool:
    return not connection.in_atomic_block


def claim(model: type[Job], pk: int, lease: timedelta) -> str | None:
    """Take the job (queued, or running with its lease run out); our token, or None when
    another run holds it, it is final, or it was taken MAX_CLAIMS times already."""
    now = timezone.now()
    token = uuid.uuid4().hex
    free = Q(state=model.State.QUEUED) | Q(_expired(now), state=model.State.RUNNING)
    taken = model.objects.filter(free, pk=pk, claims__lt=MAX_CLAIMS).update(
        state=model.State.RUNNING, lease_token=token, lease_until=now + lease,
        claims=F("claims") + 1)
    return token if taken else None


def _expired(now: datetime) -> Q:
    # A job running when this release was installed has no lease: its run is taken as dead.
    return Q(lease_until__lt=now) | Q(lease_until__isnull=True)


class Lease:
    """The lease a run holds: its progress writes go through `write`."""

    def __init__(self, model: type[Job], pk: int, token: str, lease: timedelta) -> None:
        self.model: Any = model
        self.pk, self.token, self.lease = pk, token, lease

    def write(self, **values: Any) -> None:
        """Update the job's row and push the lease's end; LeaseLost if it is not ours."""
        if not self.model.objects.filter(pk=self.pk, lease_token=self.token).update(
                lease_until=timezone.now() + self.lease, **values):
            raise LeaseLost(self.pk)

    def finish(self, **values: Any) -> bool:
        """Write the final state and give the lease up; False when it was not ours."""
        return bool(self.model.objects.filter(pk=self.pk, lease_token=self.token).update(
            lease_token="", lease_until=None, **values))


def _still_ours(lease: Lease) -> bool:
    try:
        lease.write()
    except LeaseLost:
        return False
    return True


def run_leased(model: type[Job], pk: int, work: Callable[[Lease], None]) -> None:
    """Run `work` under the job's lease: nothing when another run holds the job (or it is
    finished), and no more once another run took it over. A worker's run keeps its lease alive
    with a LeaseRenewer; unwatched (inside a transaction, tests) the long lease and the progress
    writes do."""
    watched_run = watched()
    lease_for = WATCHED_LEASE if watched_run else UNWATCHED_LEASE
    token = claim(model, pk, lease_for)
    if token is None:
        return
    lease = Lease(model, pk, token, lease_for)
    try:
        if watched_run:
            with LeaseRenewer(partial(_still_ours, lease), every_s=RENEW_EVERY_S,
                              what=f"{model.__name__} {pk}"):
                work(lease)
        else:
            work(lease)
    except LeaseLost:
        logger.info("%s %s: another run took it over", model.__name__, pk)


def stalled(model: type[Job], now: datetime | None = None) -> list[int]:
    """Jobs to send to a worker again: queued for longer than `stale_after()` since they were
    asked for or last sent, or running with their lease run out (a dead worker)."""
    now = now or timezone.now()
    lost = Q(state=model.State.QUEUED, queued_at__lt=now - stale_after())
    dead = Q(_expired(now), state=model.State.RUNNING, claims__lt=MAX_CLAIMS)
    return list(model.objects.filter(lost | dead).order_by("pk").values_list("pk", flat=True))


def exhausted(model: type[Job], now: datetime | None = None) -> list[int]:
    """Running jobs whose lease ran out after MAX_CLAIMS runs: to be given up."""
    now = now or timezone.now()
    return list(model.objects.filter(_expired(now), state=model.State.RUNNING,
                                     claims__gte=MAX_CLAIMS).values_list("pk", flat=True))


def mark_sent(model: type[Job], pks: list[int]) -> None:
    """A queued job sent again waits another `stale_after()` before the next sending."""
    model.objects.filter(pk__in=pks, state=model.State.QUEUED).update(queued_at=timezone.now())
