"""The one seam through which use cases queue Celery work.

Services must not import their app's `tasks` module (tasks import services, and the layers
contract keeps pages and tasks above services), so they name the task instead:
`enqueue("sms.tasks.send_campaign", campaign_id)`. The message is sent only once the current
transaction commits, so a worker never looks for a row that is not there yet, and a rolled
back use case queues nothing. A misspelt name fails loudly at the call, never silently: the
module is imported and the task looked up in the registry (tests/foundation checks every name
the code passes here).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from celery import Task
from django.db import transaction

from backoffice.celery import app
from backoffice.operations.once_a_minute import warn

logger = logging.getLogger(__name__)


def registered_task(name: str) -> Task[..., Any]:
    """The task registered under `name` (`<module>.<function>`); KeyError if there is none."""
    if name not in app.tasks:
        # A web process has not necessarily imported the tasks modules yet.
        importlib.import_module(name.rsplit(".", 1)[0])
    return app.tasks[name]


def enqueue(
    name: str,
    *args: Any,
    countdown: float = 0,
    expires: float | None = None,
    after_commit: bool = True,
) -> bool | None:
    """Queue task `name` with positional `args` once the current transaction commits.

    `countdown` delays it (0: at once); `expires` drops it if no worker took it by then.
    `after_commit=False` sends it at once, for callers that already run after a commit, and
    then answers whether the broker took it (None: sent at the commit, not known yet).
    """
    task = registered_task(name)

    def send() -> bool:
        # Celery reads a countdown of 0 as "at once"; an expiry only when one is asked for.
        try:
            if expires is None:
                task.apply_async(args, countdown=countdown)
            else:
                task.apply_async(args, countdown=countdown, expires=expires)
            return True
        except Exception:
            # The broker is down. The use case is committed and its rows say what is left to
            # do; each app's beat sweep (stale `created` orders, campaigns, jobs) queues it
            # again, so the work is delayed, not lost, and the request still succeeds.
            warn(__name__, "broker", "broker unavailable: %s not queued, the sweep will "
                 "take it", name, exc_info=True)
            return False

    if after_commit:
        transaction.on_commit(send)
        return None
    return send()
