"""Reading an answer's `Retry-After` (RFC 9110, 10.2.3): whole seconds, or an HTTP date."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

MAX_WAIT_S = 3600.0  # a longer wait is taken as this: the caller's own backoff applies after


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from now (0 for a date in the past); None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return min(float(text), MAX_WAIT_S)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # an HTTP date is always GMT
        when = when.replace(tzinfo=UTC)
    wait = (when - (now or datetime.now(UTC))).total_seconds()
    return min(max(0.0, wait), MAX_WAIT_S)
