"""The marketing sending window ("quiet hours"): when marketing messages may go out.

Pure (no Django): the SMS app parses `SMS_MARKETING_WINDOW` with it at start-up, so
a malformed value stops start-up naming the variable, and the sender asks it before every call.
Times are wall-clock times of the provider's time zone (Asia/Shanghai); the caller converts.

A window is `HH:MM-HH:MM`, start included, end excluded. An end before the start spans
midnight (`22:00-06:00`); an end equal to the start is refused, since it would mean either
"never" or "always" and nobody should have to guess which.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta

DEFAULT_WINDOW = "08:00-21:00"
_FORMAT = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


class WindowError(ValueError):
    """The window's text is not `HH:MM-HH:MM` with two different valid times."""


@dataclass(frozen=True)
class SendingWindow:
    start: time
    end: time

    def __str__(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M}"

    def contains(self, local: datetime) -> bool:
        """Whether the wall-clock time of `local` is inside the window."""
        moment = local.time().replace(tzinfo=None)
        if self.start < self.end:
            return self.start <= moment < self.end
        return moment >= self.start or moment < self.end

    def next_opening(self, local: datetime) -> datetime:
        """The first opening of the window after `local` (same tzinfo as `local`; the provider's
        time zone has no daylight saving, so a day is 24 hours)."""
        opening = datetime.combine(local.date(), self.start, tzinfo=local.tzinfo)
        if opening <= local:
            opening += timedelta(days=1)
        return opening


def parse_window(text: str) -> SendingWindow:
    """`HH:MM-HH:MM` -> SendingWindow; WindowError with the reason otherwise."""
    match = _FORMAT.match(text)
    if match is None:
        raise WindowError(f"expected HH:MM-HH:MM (for example {DEFAULT_WINDOW}), got {text!r}")
    start_hour, start_minute, end_hour, end_minute = (int(part) for part in match.groups())
    for hour, minute in ((start_hour, start_minute), (end_hour, end_minute)):
        if hour > 23 or minute > 59:
            raise WindowError(f"{hour:02d}:{minute:02d} is not a time of day (00:00 to 23:59)")
    start, end = time(start_hour, start_minute), time(end_hour, end_minute)
    if start == end:
        raise WindowError(f"the window opens and closes at the same time ({text.strip()})")
    return SendingWindow(start, end)
