"""Several sending calls of a campaign run in flight at once, and the pace a 429 imposes.

A personalised campaign makes one call per set of values, so its speed is the provider's
answer time; with up to `SMS_SEND_CONCURRENCY` calls out at once it is several times that.
Only the provider call runs in a pool thread: marking the numbers before a call and writing
the answers after it stay in the run's own thread and database connection, in the order of
campaigns.py's rules, so the send-once and crash-resume guarantees are those of one call at a
time: a worker killed with four calls out leaves four groups `submitting`, which the next run
reconciles as it would one.

`Throttle` is the pace: a 429 (the call was not taken) pauses every new call until its
`Retry-After` (or 1, 2, 4... s without one, at most MAX_BACKOFF_S) and halves the calls in
flight; each run of successes as long as the limit adds one back, up to the setting. The pause
is also shared with every other run through the cache (`SHARED_PAUSE_KEY`), so one campaign's
429 slows all of them; while the cache is down each run keeps its own pause only (soft_cache:
a Redis outage must not stop a campaign, issue 28). A 5xx or a lost answer stops the run as
before (campaigns.py, rule 6), with its own backoff between runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from django.conf import settings

from backoffice.operations import soft_cache
from backoffice.operations.provider import Contact, contact_deferred, record_contacts
from sms import client as api

BASE_BACKOFF_S = 1.0
MAX_BACKOFF_S = 30.0
SHARED_PAUSE_KEY = "sms:send:paused-until"  # wall-clock time (time.time()) of the pause's end
K = TypeVar("K")


def concurrency() -> int:
    return int(getattr(settings, "SMS_SEND_CONCURRENCY", 4))


def shared_pause_s() -> float:
    """Seconds left of a pause another run was told to make (0 when none or no cache)."""
    until = soft_cache.read(SHARED_PAUSE_KEY)
    return max(0.0, float(until) - time.time()) if until else 0.0


def share_pause(wait_s: float) -> None:
    until = time.time() + wait_s
    current = soft_cache.read(SHARED_PAUSE_KEY)
    if not current or float(current) < until:
        soft_cache.write(SHARED_PAUSE_KEY, until, int(wait_s) + 1)


@dataclass
class Throttle:
    """The calls allowed in flight and the pause, for one run. `clock` is monotonic."""

    ceiling: int
    limit: int = 0
    clock: Callable[[], float] = time.monotonic
    paused_until: float = 0.0
    strikes: int = 0  # 429s in a row, for the backoff without a Retry-After
    successes: int = 0

    def __post_init__(self) -> None:
        self.limit = self.limit or self.ceiling

    def rate_limited(self, retry_after_s: float | None) -> float:
        """Note a 429; returns how long new calls now wait."""
        self.strikes += 1
        backoff = min(MAX_BACKOFF_S, BASE_BACKOFF_S * 2 ** (self.strikes - 1))
        wait_s = retry_after_s if retry_after_s is not None else backoff
        self.paused_until = max(self.paused_until, self.clock() + wait_s)
        self.limit = max(1, self.limit // 2)
        self.successes = 0
        share_pause(wait_s)
        return wait_s

    def succeeded(self) -> None:
        self.strikes = 0
        self.successes += 1
        if self.limit < self.ceiling and self.successes >= self.limit:
            self.limit += 1
            self.successes = 0

    def wait_s(self) -> float:
        return max(0.0, self.paused_until - self.clock(), shared_pause_s())


@dataclass(frozen=True)
class Call(Generic[K]):
    """One provider call: what the caller needs back (`key`), the numbers and the values."""

    key: K
    mobiles: list[str]
    values: list[str]


@dataclass
class Finished(Generic[K]):
    call: Call[K]
    results: list[api.SendResult] | None = None
    error: BaseException | None = None
    contacts: list[Contact] = field(default_factory=list)


@dataclass
class CallsInFlight(Generic[K]):
    """A pool making `send(template_id, mobiles, values)` calls; the caller submits while
    `has_room()`, and takes the finished ones back in its own thread."""

    send: Callable[[list[str], list[str]], list[api.SendResult]]
    throttle: Throttle
    _pending: dict[Future[Finished[K]], Call[K]] = field(default_factory=dict)
    _pool: ThreadPoolExecutor | None = None

    def __enter__(self) -> CallsInFlight[K]:
        self._pool = ThreadPoolExecutor(max_workers=self.throttle.ceiling,
                                        thread_name_prefix="sms-send")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)  # never leave a call without its answer read

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    def has_room(self) -> bool:
        return len(self._pending) < self.throttle.limit

    def submit(self, call: Call[K]) -> None:
        assert self._pool is not None, "use CallsInFlight as a context manager"
        self._pending[self._pool.submit(self._make, call)] = call

    def _make(self, call: Call[K]) -> Finished[K]:
        """In a pool thread: the call, and nothing of the database (contact_deferred)."""
        with contact_deferred() as contacts:
            try:
                return Finished(call, results=self.send(call.mobiles, call.values),
                                contacts=contacts)
            except Exception as error:  # handed to the run's thread, which decides
                return Finished(call, error=error, contacts=contacts)

    def finished(self, timeout_s: float | None) -> Iterator[Finished[K]]:
        """The calls done within `timeout_s` (0: those done now; None: wait for one)."""
        if not self._pending:
            return
        done, _running = wait(list(self._pending), timeout=timeout_s,
                              return_when=FIRST_COMPLETED)
        for future in done:
            del self._pending[future]
            finished = future.result()
            record_contacts(finished.contacts)
            if finished.error is None:
                self.throttle.succeeded()
            yield finished
