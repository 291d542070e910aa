"""Each scheduled job runs once per due time, whoever holds the beat lease (issue 28): the
active beat is killed at every step of a tick (after renewing the lease, after claiming a
run, after sending it, after recording it), again and again, a standby takes over each time,
and the runs sent are counted per job and due time, the 00:30 crontab report included.

The scheduler's own steps are driven under a moved clock; only the broker is replaced (the
sends are recorded instead of published)."""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from backoffice.celery import app
from backoffice.models import ScheduledRun, SchedulerLease
from backoffice.operations.beat import LeasedDatabaseScheduler

SHANGHAI = ZoneInfo("Asia/Shanghai")
STEPS = ["renewed", "claimed", "sent", "recorded"]


class Killed(BaseException):
    """The beat process dies here (SIGKILL: nothing after it runs)."""


class SimulatedBeat(LeasedDatabaseScheduler):
    """A beat whose sends are recorded, and which dies at its `kill_at` step."""

    def __init__(self, *args: Any, sent: list[tuple[str, datetime]], kill_at: str | None,
                 **kwargs: Any) -> None:
        self.sent = sent
        self.kill_at = kill_at
        super().__init__(*args, **kwargs)
        # django-celery-beat syncs every scheduler at interpreter exit (a multiprocessing
        # finalizer); a simulated beat dies with its test, long before the test database.
        self._finalize.cancel()

    @property
    def producer(self) -> None:
        return None

    def apply_async(self, entry: Any, producer: Any = None, advance: bool = True,
                    **kwargs: Any) -> None:
        self.sent.append((entry.name, timezone.now()))

    def step(self, name: str) -> None:
        if name == self.kill_at:
            raise Killed(name)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        self.renewed_at = 0.0  # the clock is moved, not waited for: renew at every tick
        return super().tick(*args, **kwargs)


def slot_of(job: str, at: datetime) -> str:
    """The due time a send stands for, computed here independently of the scheduler."""
    schedule = app.conf.beat_schedule[job]["schedule"]
    if isinstance(schedule, float | int):
        return f"{job}@{math.floor(at.timestamp() / schedule)}"
    return f"{job}@{at.astimezone(SHANGHAI).date()}"  # the daily report: once a day


def run(kill_at: str | None, kills: int, start: datetime,
        seconds: int) -> tuple[list[tuple[str, datetime]], int]:
    sent: list[tuple[str, datetime]] = []
    killed = 0
    with time_machine.travel(start, tick=False) as clock:
        beat = SimulatedBeat(app=app, sent=sent, kill_at=None)
        for _second in range(0, seconds, 5):
            clock.shift(timedelta(seconds=5))
            for _tick in range(50):  # a tick sends one due job; 0 means "more are due"
                try:
                    if beat.tick() > 0:
                        break
                except Killed:
                    killed += 1
                    # The standby takes over once the dead beat's lease has expired.
                    SchedulerLease.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
                    beat = SimulatedBeat(app=app, sent=sent,
                                         kill_at=kill_at if killed < kills else None)
            if killed == 0 and kill_at is not None and _second >= 20:
                beat.kill_at = kill_at  # the first kill once the schedule is under way
    return sent, killed


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kill_at", STEPS)
def test_a_killed_beat_and_its_successors_send_each_due_run_at_most_once(kill_at):
    start = datetime(2026, 11, 20, 0, 28, 0, tzinfo=SHANGHAI)
    sent, killed = run(kill_at, kills=4, start=start, seconds=240)
    assert killed == 4
    per_due_time = Counter(slot_of(job, at) for job, at in sent)
    twice = {due: n for due, n in per_due_time.items() if n > 1}
    assert not twice, twice
    # The 00:30 report ran once (unless the beat died between its claim and its send).
    report_runs = sum(job == "topup-daily-report" for job, _at in sent)
    claimed_reports = ScheduledRun.objects.filter(job="topup-daily-report").count()
    # At most once: a beat killed between the claim and the send loses that one run.
    assert claimed_reports == 1 and report_runs in ((0, 1) if kill_at == "claimed" else (1,))
    # Every frequent job kept running across the takeovers.
    assert sum(job == "topup-poll-orders" for job, _at in sent) >= 5


@pytest.mark.django_db(transaction=True)
def test_without_kills_each_due_time_runs_exactly_once_and_last_run_at_is_written():
    from django_celery_beat.models import PeriodicTask

    start = datetime(2026, 11, 20, 0, 28, 0, tzinfo=SHANGHAI)
    sent, _killed = run(None, kills=0, start=start, seconds=240)
    per_due_time = Counter(slot_of(job, at) for job, at in sent)
    assert set(per_due_time.values()) == {1}
    assert per_due_time[f"topup-daily-report@{start.date()}"] == 1
    report = PeriodicTask.objects.get(name="topup-daily-report")
    assert report.last_run_at is not None  # written at the send, not at a later sync


def tick_until_idle(beat: SimulatedBeat) -> None:
    for _tick in range(50):
        if beat.tick() > 0:
            return


@pytest.mark.django_db(transaction=True)
def test_a_standby_taking_over_at_a_slot_boundary_sends_nothing_twice():
    # The outage test saw a standby that had stood by for a minute take over at 01:39:59.9
    # and send topup-poll-orders at .947 and again at 01:40:00.108: two due times (the
    # 30 s slots :30 and :00), so both claims held; the job ran twice 160 ms apart.
    from django_celery_beat.models import PeriodicTasks

    sent: list[tuple[str, datetime]] = []
    start = datetime(2026, 11, 20, 10, 0, 1, tzinfo=SHANGHAI)
    with time_machine.travel(start, tick=False) as clock:
        standby = SimulatedBeat(app=app, sent=sent, kill_at=None)
        active = SimulatedBeat(app=app, sent=sent, kill_at=None)
        standby.holder, active.holder = "host-b:2", "host-a:1"  # two processes
        # The standby-to-be schedules first, then loses the lease (its database writes
        # stalled: an outage) to the other beat, and stands by.
        for _second in range(0, 30, 5):
            clock.shift(timedelta(seconds=5))
            tick_until_idle(standby)
            tick_until_idle(active)
        SchedulerLease.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
        for _second in range(0, 60, 5):
            clock.shift(timedelta(seconds=5))
            tick_until_idle(active)
            tick_until_idle(standby)
        assert standby.active is False and active.active is True
        # A beat started since (a restarted host's, which saves the entries): the standby's
        # first reading after it takes over finds the schedule changed.
        PeriodicTasks.update_changed()
        # The active beat dies; the standby takes over a moment before a slot ends.
        SchedulerLease.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
        clock.shift(timedelta(seconds=29.9 - timezone.now().timestamp() % 30))
        standby.tick()  # takes the lease and sends the first due job
        clock.shift(timedelta(seconds=0.2))  # its next tick falls in the next slot
        tick_until_idle(standby)
        clock.shift(timedelta(seconds=5))
        tick_until_idle(standby)
    schedule = app.conf.beat_schedule
    for job in {job for job, _at in sent}:
        every = schedule[job]["schedule"]
        if not isinstance(every, float | int):
            continue
        times = sorted(at for name, at in sent if name == job)
        gaps = [(later - earlier).total_seconds()
                for earlier, later in zip(times, times[1:], strict=False)]
        assert all(gap >= every / 2 for gap in gaps), (job, times)
