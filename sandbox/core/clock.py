"""The sandbox clock: real time plus an offset that `POST /clock/advance` moves forward.

Every time rule of every emulated service reads `now()`; nothing reads time.time() directly.
The offset is kept in the database (state lives in the data directory) and cached here, since
the sandbox is one process.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

from sandbox.core.models import ClockState

_lock = threading.Lock()
_offset: float | None = None


def _load_offset() -> float:
    global _offset
    if _offset is None:
        state = ClockState.objects.first()
        _offset = state.offset_s if state else 0.0
    return _offset


def now() -> float:
    """Unix seconds on the sandbox clock."""
    return time.time() + _load_offset()


def now_datetime() -> datetime:
    return datetime.fromtimestamp(now(), tz=UTC)


def advance(seconds: float) -> float:
    global _offset
    with _lock:
        offset = _load_offset() + seconds
        ClockState.objects.update_or_create(pk=1, defaults={"offset_s": offset})
        _offset = offset
    return now()


def reset() -> None:
    global _offset
    with _lock:
        ClockState.objects.update_or_create(pk=1, defaults={"offset_s": 0.0})
        _offset = 0.0


def forget_cache() -> None:
    """Drop the cached offset (tests that swap databases call this)."""
    global _offset
    _offset = None
