"""Heartbeats of worker and beat processes, written to the shared database and read by `/ready`.

A worker writes one from a small thread every HEARTBEAT_EVERY_S while it runs (started by the
`worker_ready` signal); the active beat writes one at every tick. Web nodes on any host read the
newest per kind.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime

from django.db import close_old_connections
from django.utils import timezone

from backoffice.models import ProcessHeartbeat

logger = logging.getLogger(__name__)

HEARTBEAT_EVERY_S = 15.0


def process_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def beat(kind: str, name: str | None = None) -> None:
    """Record that a `kind` process (worker, beat) is alive now."""
    ProcessHeartbeat.objects.update_or_create(
        kind=kind, name=name or process_name(), defaults={"seen_at": timezone.now()}
    )


def last_seen(kind: str) -> datetime | None:
    newest = ProcessHeartbeat.objects.filter(kind=kind).order_by("-seen_at").first()
    return newest.seen_at if newest else None


def forget(kind: str, name: str | None = None) -> None:
    """A process that stops cleanly says so, so `/ready` does not wait a minute to notice."""
    ProcessHeartbeat.objects.filter(kind=kind, name=name or process_name()).delete()


class HeartbeatThread(threading.Thread):
    """Writes the worker's heartbeat until stopped; a failed write is logged and retried."""

    def __init__(self, kind: str, every_s: float = HEARTBEAT_EVERY_S) -> None:
        super().__init__(name=f"{kind}-heartbeat", daemon=True)
        self.kind = kind
        self.every_s = every_s
        self.name_in_db = process_name()
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                close_old_connections()
                beat(self.kind, self.name_in_db)
            except Exception:  # the database may be away for a moment; /ready will tell
                logger.exception("could not write the %s heartbeat", self.kind)
            self.stopping.wait(self.every_s)

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=5)
        try:
            forget(self.kind, self.name_in_db)
        except Exception:
            logger.exception("could not remove the %s heartbeat", self.kind)
