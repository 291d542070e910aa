"""Reading and writing Django's cache where a cached value only saves work.

Pages and polls keep counts in the cache to spare the database; a cache that is down must not
take them with it. These two calls never raise: a failed read is a miss (the caller computes
the value), a failed write is logged and forgotten (the next caller computes it again).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

logger = logging.getLogger(__name__)


def read(key: str) -> Any:
    """The cached value, or None when absent or when the cache cannot be read."""
    try:
        return cache.get(key)
    except Exception:
        logger.warning("cache unavailable: %s read as a miss", key, exc_info=True)
        return None


def write(key: str, value: object, timeout_s: float) -> None:
    """Cache `value` for `timeout_s` seconds, if the cache can be written."""
    try:
        cache.set(key, value, timeout_s)
    except Exception:
        logger.warning("cache unavailable: %s not kept", key, exc_info=True)
