"""The sandbox's log lines: time stamps in UTC with the offset written out, as the
back-office's (`make run` interleaves both; the two sides share no code, so this is a copy)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime


class UtcFormatter(logging.Formatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
