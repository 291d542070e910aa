"""Hooks the emulated services register: due events (`on_tick`), reset cleanup (`on_reset`)
and changes to the HTTP server before it serves (`on_server`, e.g. a port's own parser).

Tick handlers receive the sandbox time and fire whatever has become due by then (deliveries,
callbacks, expiries). They run every SANDBOX_TICK_INTERVAL_S from a background thread and
synchronously after every clock advance, one run at a time, so a handler never races itself.
A handler must be idempotent: it may be called many times for the same moment.

The time is read after the run lock is taken, and a reset holds the same lock (`exclusive`),
so a run never applies a moment from before a reset to the data created after it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

logger = logging.getLogger(__name__)

TickHandler = Callable[[float], None]
ResetHandler = Callable[[], object]  # what it returns is ignored

_tick_handlers: list[TickHandler] = []
_reset_handlers: list[ResetHandler] = []
_server_handlers: list[Callable[[object], None]] = []
_run_lock = threading.Lock()


def on_tick(handler: TickHandler) -> TickHandler:
    if handler not in _tick_handlers:
        _tick_handlers.append(handler)
    return handler


def on_reset(handler: ResetHandler) -> ResetHandler:
    if handler not in _reset_handlers:
        _reset_handlers.append(handler)
    return handler


def on_server(handler: Callable[[object], None]) -> Callable[[object], None]:
    if handler not in _server_handlers:
        _server_handlers.append(handler)
    return handler


def server_created(server: object) -> None:
    """Let each service adjust the waitress server (runsandbox, before it runs)."""
    for handler in list(_server_handlers):
        handler(server)


def run_due(clock_now: Callable[[], float]) -> float:
    """Run every tick handler for the time read under the lock; returns that time."""
    with _run_lock:
        now = clock_now()
        for handler in list(_tick_handlers):
            try:
                handler(now)
            except Exception:
                logger.exception("tick handler %s failed", getattr(handler, "__name__", handler))
        return now


@contextmanager
def exclusive() -> Iterator[None]:
    """Hold off every tick run (used by reset)."""
    with _run_lock:
        yield


def run_reset_handlers() -> None:
    for handler in list(_reset_handlers):
        handler()


class Ticker(threading.Thread):
    """Runs the due events every interval until stopped."""

    def __init__(self, interval_s: float, clock_now: Callable[[], float]) -> None:
        super().__init__(name="sandbox-ticker", daemon=True)
        self.interval_s = interval_s
        self.clock_now = clock_now
        self._stop_event = threading.Event()

    def run(self) -> None:
        from django.db import close_old_connections

        while not self._stop_event.wait(self.interval_s):
            close_old_connections()
            run_due(self.clock_now)

    def stop(self) -> None:
        self._stop_event.set()
