"""How long a provider call may wait: one (connect, read) default and how clients pass it.

`requests` applies the connect part to opening the connection and the read part to each
socket read (not to the whole answer), so a large transfer is not cut short by it.
"""

from __future__ import annotations

from typing import TypeAlias

Timeout: TypeAlias = float | tuple[float, float]

# Connect quickly or give up: an unreachable provider should not hold a worker for long.
CONNECT_TIMEOUT_S = 5.0
# Reading may take long: some calls wait on the provider's own work (a carrier, a transcoder).
READ_TIMEOUT_S = 30.0
DEFAULT_TIMEOUT: tuple[float, float] = (CONNECT_TIMEOUT_S, READ_TIMEOUT_S)


def with_read(read_s: float, connect_s: float = CONNECT_TIMEOUT_S) -> tuple[float, float]:
    """The default connect timeout with another read timeout (from settings, for instance)."""
    return (connect_s, read_s)


def check_timeout(timeout: Timeout) -> Timeout:
    """`timeout` unchanged when every part of it is a positive number; ValueError otherwise
    (a zero would make every call fail, a negative one is refused by `requests` late)."""
    parts = timeout if isinstance(timeout, tuple) else (timeout,)
    if not parts or any(isinstance(part, bool) or not part > 0 for part in parts):
        raise ValueError(f"timeout must be positive, got {timeout!r}")
    return timeout
