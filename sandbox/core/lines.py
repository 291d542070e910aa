"""Requests per storage entry line (DECISIONS: `auto`, `telecom`, `unicom`, `cmcc`).

A request's line is the local address it arrived on: the server names each listening socket
by its own address (SERVER_NAME, see runsandbox), so 127.0.0.2 is `telecom` and so on; any
other address counts as `auto`. The counts live in memory (a write per storage request would
cost more than the request) and a reset empties them, like the rest of the account's data.
"""

from __future__ import annotations

import threading

from sandbox.core.ports import LINE_OF_ADDRESS, STORAGE_LINES

_lock = threading.Lock()
_counts: dict[str, int] = dict.fromkeys(STORAGE_LINES, 0)


def line_of(local_address: str) -> str:
    return LINE_OF_ADDRESS.get(local_address, "auto")


def count(local_address: str) -> str:
    line = line_of(local_address)
    with _lock:
        _counts[line] += 1
    return line


def counts() -> dict[str, int]:
    with _lock:
        return dict(_counts)


def clear() -> None:
    with _lock:
        for line in _counts:
            _counts[line] = 0
