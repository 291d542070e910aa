"""The worker's heartbeat thread, started and stopped with the worker (Celery signals)."""

from __future__ import annotations

from typing import Any

from celery.signals import worker_ready, worker_shutdown

_thread: Any = None


@worker_ready.connect
def start_heartbeat(**_kwargs: Any) -> None:
    global _thread
    from backoffice.heartbeats import HeartbeatThread  # Django is set up by now

    _thread = HeartbeatThread("worker")
    _thread.start()


@worker_shutdown.connect
def stop_heartbeat(**_kwargs: Any) -> None:
    if _thread is not None:
        _thread.stop()
