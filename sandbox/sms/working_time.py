"""Working time for the review clock: Monday to Friday in Asia/Shanghai, whole days (the spec
gives review times "on working days" and names no hours). Pure: no Django."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

SHANGHAI = timezone(timedelta(hours=8), "Asia/Shanghai")


def add_working_time(start: float, seconds: float) -> float:
    """`start` (Unix seconds) moved on by `seconds` of working time: Monday to Friday in
    Asia/Shanghai, whole days; a weekend stops the clock."""
    moment = datetime.fromtimestamp(start, SHANGHAI)
    left = timedelta(seconds=seconds)
    while True:
        midnight = (moment + timedelta(days=1)).replace(hour=0, minute=0, second=0,
                                                        microsecond=0)
        if moment.weekday() >= 5:
            moment = midnight
            continue
        if moment + left <= midnight:
            return (moment + left).timestamp()
        left -= midnight - moment
        moment = midnight
