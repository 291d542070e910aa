"""Keeping a long run's lease alive from a thread of its own (SMS campaigns, storage's folder
jobs).

A run in a worker holds a short lease so that a killed worker's work is noticed soon; the run
itself may wait a long time on one call, so a `LeaseRenewer` renews the lease meanwhile. It
writes through its own database connection, kept for the run and closed when it stops. A
renewal that fails on the database (the server restarting, the connection cut) is logged once
a minute and tried again at the next turn on a new connection: the lease has some seconds
left, and giving up at once would hand a live run's work to another worker.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from types import TracebackType

from django.db import Error as DatabaseFailure
from django.db import connection

from backoffice.operations import once_a_minute

logger = logging.getLogger(__name__)


class LeaseRenewer:
    """Calls `renew` every `every_s` seconds while a `with` block runs, until it answers False
    (the lease is no longer the run's) or, with `limit_s`, that many seconds have passed (a
    run stuck beyond any call's length must still lose its lease). `what` names the run in
    the log; `renewals` counts the renewals made."""

    def __init__(self, renew: Callable[[], bool], *, every_s: float, what: str,
                 limit_s: float | None = None) -> None:
        self._renew = renew
        self.every_s = every_s
        self.what = what
        self.limit = None if limit_s is None else time.monotonic() + limit_s
        self.renewals = 0
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._keep, daemon=True,
                                        name=f"{what.replace(' ', '-')}-lease")

    def __enter__(self) -> LeaseRenewer:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stopping.set()
        self._thread.join()

    def renew_once(self) -> bool:
        """False once the lease is lost; True to carry on (also after a failed write)."""
        try:
            if not self._renew():
                return False
        except DatabaseFailure as error:
            # One line a minute for all runs: in an outage every lease fails at once.
            once_a_minute.warn(__name__, "lease-renewal", "%s: could not renew its lease: %s",
                               self.what, error)
            with suppress(DatabaseFailure):
                connection.close()  # the next turn connects afresh
            return True
        self.renewals += 1
        return True

    def _keep(self) -> None:
        try:
            while not self._stopping.wait(self.every_s):
                if self.limit is not None and time.monotonic() > self.limit:
                    logger.warning("%s: the run passed its time limit; its lease is no "
                                   "longer renewed", self.what)
                    return
                if not self.renew_once():
                    return
        finally:
            connection.close()
