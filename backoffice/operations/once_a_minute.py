"""Logging a recurring failure once a minute per process, not once per request.

While Redis or PostgreSQL is down every request meets the same failure; a traceback each time
would bury the log (and the first lines are the ones that explain it). The first occurrence
of a `topic` is logged in full, later ones within the minute are counted and their number is
given with the next line logged.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

EVERY_S = 60.0

_lock = threading.Lock()
_last: dict[str, float] = {}
_skipped: dict[str, int] = {}


def due(topic: str, every_s: float = EVERY_S) -> int | None:
    """None while `topic` was logged less than `every_s` ago (this call is counted), else the
    number of calls skipped since it was last logged (the caller logs now)."""
    now = time.monotonic()
    with _lock:
        last = _last.get(topic)
        if last is not None and now - last < every_s:
            _skipped[topic] = _skipped.get(topic, 0) + 1
            return None
        _last[topic] = now
        return _skipped.pop(topic, 0)


def warn(logger_name: str, topic: str, message: str, *args: Any,
         level: int = logging.WARNING, exc_info: bool = False) -> None:
    """`logger.log(level, message % args)` unless `topic` was logged within the minute."""
    skipped = due(topic)
    if skipped is None:
        return
    if skipped:
        message += " (%d more since the last line)"
        args = (*args, skipped)
    logging.getLogger(logger_name).log(level, message, *args, exc_info=exc_info, stacklevel=2)


def forget() -> None:
    """Start afresh (tests)."""
    with _lock:
        _last.clear()
        _skipped.clear()
