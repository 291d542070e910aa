"""What a Celery worker does besides its tasks, hooked on Celery's signals: the heartbeat
thread (started and stopped with the worker) and the task outcome and duration metrics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from celery import Task
from celery.signals import task_postrun, task_prerun, worker_ready, worker_shutdown

if TYPE_CHECKING:
    from backoffice.operations.heartbeats import HeartbeatThread

_thread: HeartbeatThread | None = None


@worker_ready.connect
def start_heartbeat(**_kwargs: Any) -> None:
    global _thread
    from backoffice.operations.heartbeats import HeartbeatThread  # Django is set up by now

    _thread = HeartbeatThread("worker")
    _thread.start()


@worker_shutdown.connect
def stop_heartbeat(**_kwargs: Any) -> None:
    if _thread is not None:
        _thread.stop()


@task_prerun.connect
def time_task(task_id: str | None = None, **_kwargs: Any) -> None:
    from backoffice.operations import metrics

    if task_id:
        metrics.task_started(task_id)


@task_postrun.connect
def count_task(task_id: str | None = None, task: Task[..., Any] | None = None,
               state: str | None = None, **_kwargs: Any) -> None:
    from backoffice.operations import metrics

    if task_id:
        metrics.task_finished(task_id, getattr(task, "name", "?"), (state or "unknown").lower())
