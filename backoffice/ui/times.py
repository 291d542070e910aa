"""Times as staff read them: in the current time zone (TIME_ZONE, Asia/Shanghai by default),
with that zone written out, so that a time read by someone elsewhere (a lockout's end, a
provider's last answer) is not taken for their own clock's."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format


def utc_offset(moment: datetime | None = None) -> str:
    """`UTC+08:00`: the current zone's offset at `moment` (now by default; a zone with summer
    time has two)."""
    local = timezone.localtime(moment or timezone.now())
    offset = local.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


def zone_name() -> str:
    return str(timezone.get_current_timezone_name())


def zoned(moment: datetime, fmt: str = "Y-m-d H:i") -> str:
    """`2026-11-25 15:12 UTC+08:00`: `moment` in the current zone, in Django's date format
    `fmt`, then the zone's offset at that moment."""
    return f"{date_format(timezone.localtime(moment), fmt)} {utc_offset(moment)}"
