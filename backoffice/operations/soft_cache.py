"""Reading and writing Django's cache where a cached value only saves work or coordinates.

Pages and polls keep counts in the cache to spare the database; a cache that is down must not
take them with it. None of these calls raises: a failed read is a miss (the caller computes
the value), a failed write is logged and forgotten (the next caller computes it again), a
failed `add` answers None so that the caller can tell "taken" from "unknown".

While the cache is down every request would fail the same way: the failure is logged once a
minute per process (with its traceback), not once per call (see `once_a_minute`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.cache import cache

from backoffice.operations.once_a_minute import warn

LOGGER_NAME = __name__


def unavailable(what: str) -> None:
    """Log that the cache could not be used for `what` (once a minute per process)."""
    warn(LOGGER_NAME, "cache", "cache unavailable (%s); carrying on without it", what,
         exc_info=True)


def read(key: str) -> Any:
    """The cached value, or None when absent or when the cache cannot be read."""
    try:
        return cache.get(key)
    except Exception:
        unavailable(f"{key} read as a miss")
        return None


def read_many(keys: Iterable[str]) -> dict[str, Any]:
    """The cached values found among `keys`; none at all when the cache cannot be read."""
    try:
        return cache.get_many(list(keys))
    except Exception:
        unavailable("several keys read as misses")
        return {}


def write(key: str, value: object, timeout_s: float) -> None:
    """Cache `value` for `timeout_s` seconds, if the cache can be written."""
    try:
        cache.set(key, value, timeout_s)
    except Exception:
        unavailable(f"{key} not kept")


def write_many(values: Mapping[str, object], timeout_s: float) -> None:
    try:
        cache.set_many(dict(values), timeout_s)
    except Exception:
        unavailable("several keys not kept")


def add(key: str, value: object, timeout_s: float) -> bool | None:
    """`cache.add`: True when this call set the key, False when it was there already, None
    when the cache could not be reached (the caller decides what "unknown" means)."""
    try:
        return bool(cache.add(key, value, timeout_s))
    except Exception:
        unavailable(f"{key} not added")
        return None


def delete(*keys: str) -> None:
    """Forget `keys`, if the cache can be reached (an entry that outlives its meaning there
    expires with its timeout)."""
    try:
        cache.delete_many(list(keys))
    except Exception:
        unavailable("keys not deleted")
