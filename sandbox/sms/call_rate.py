"""A calls-per-second limit on sending (`POST /api/messages`), set through the control API
(`POST /control/sms/settings {"calls_per_second": N}`, 0 = no limit) so that the back-office's
handling of the provider's 429 can be tested.

The provider's request-rate limits are not shown (sms-and-topup.md); the sandbox answers a call
over the limit 429 with `{"error_code": "TOO_MANY_REQUESTS", "message"}` and a `Retry-After` of
whole seconds (at least 1), before reading anything of the call, so nothing of it is stored.
The window is the last second of wall time (the sandbox clock may be moved by tests; a rate is
about real time), kept per process in memory.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque

_lock = threading.Lock()
_admitted: deque[float] = deque()  # monotonic times of the calls let in during the last second


def admit(calls_per_second: int, now: float | None = None) -> float | None:
    """None when the call may go on; else the seconds until a call would be let in."""
    if calls_per_second <= 0:
        return None
    moment = time.monotonic() if now is None else now
    with _lock:
        while _admitted and _admitted[0] <= moment - 1.0:
            _admitted.popleft()
        if len(_admitted) < calls_per_second:
            _admitted.append(moment)
            return None
        return _admitted[0] + 1.0 - moment


def retry_after_header(wait_s: float) -> str:
    return str(max(1, math.ceil(wait_s)))


def forget() -> None:
    """On reset: a fresh account starts with an empty window."""
    with _lock:
        _admitted.clear()
