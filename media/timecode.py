"""Time points as the provider writes them (`HH:MM:SS`) and as people read them. Pure Python."""

from __future__ import annotations

import math
import re

_POINT = re.compile(r"(?P<h>[0-9]{1,2}):(?P<m>[0-9]{2}):(?P<s>[0-9]{2})")
MAX_POINT_SECONDS = 99 * 3600 + 59 * 60 + 59


class BadTimePoint(ValueError):
    """Not `HH:MM:SS` with minutes and seconds below 60."""


def normalise_point(text: str) -> str:
    """`00:01:05` for `0:01:05` or ` 00:01:05 `; BadTimePoint otherwise."""
    match = _POINT.fullmatch(text.strip())
    if not match:
        raise BadTimePoint(text)
    hours, minutes, seconds = int(match["h"]), int(match["m"]), int(match["s"])
    if minutes > 59 or seconds > 59:
        raise BadTimePoint(text)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}"


def point_seconds(point: str) -> int:
    hours, minutes, seconds = (int(part) for part in normalise_point(point).split(":"))
    return hours * 3600 + minutes * 60 + seconds


def point_of(seconds: float) -> str:
    """`HH:MM:SS` of a whole number of seconds (fractions are dropped)."""
    whole = max(0, int(seconds))
    return f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def clock(seconds: float | None) -> str:
    """`00:01:05.250` for 65.25 s, for tables; '' for None or a non-finite value."""
    if seconds is None or not math.isfinite(seconds):
        return ""
    millis = round(max(0.0, seconds) * 1000)
    whole, fraction = divmod(millis, 1000)
    return f"{point_of(whole)}.{fraction:03d}"
