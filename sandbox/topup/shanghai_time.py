"""Wall-clock times of the top-up service: Asia/Shanghai, `YYYY-MM-DD HH:mm:ss` (DECISIONS).

A fixed UTC+8 offset: mainland China keeps no daylight-saving time, and this avoids depending
on the system's time-zone database.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

SHANGHAI = timezone(timedelta(hours=8), "Asia/Shanghai")
FORMAT = "%Y-%m-%d %H:%M:%S"
SHAPE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}")


def parse(text: str) -> float:
    """Unix seconds of a Shanghai wall-clock time; ValueError when malformed or impossible."""
    if not SHAPE.fullmatch(text):
        raise ValueError("must be written YYYY-MM-DD HH:mm:ss")
    try:
        moment = datetime.strptime(text, FORMAT)
    except ValueError:
        raise ValueError(f"{text} is not a real date and time") from None
    return moment.replace(tzinfo=SHANGHAI).timestamp()


def compact(unix_s: float) -> str:
    """`YYYYMMDDHHmmss`, as order numbers begin."""
    return datetime.fromtimestamp(unix_s, tz=SHANGHAI).strftime("%Y%m%d%H%M%S")
