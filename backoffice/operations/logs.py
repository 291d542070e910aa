"""Log formats shared by every process of the back-office (web, worker, beat, gunicorn).

Every time stamp is UTC with its offset written out (`2026-11-25T07:12:23.123+00:00`), in the
plain lines as in the JSON ones: Django sets the process's local zone to TIME_ZONE, gunicorn's
master keeps the machine's, and Celery formats its own lines, so local times mixed zones in one
`make run` output with nothing to tell them apart.
`LOG_FORMAT=json`: one JSON object per line, for log collectors across hosts.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def utc_timestamp(record: logging.LogRecord) -> str:
    return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


class UtcFormatter(logging.Formatter):
    """The plain line, its time in UTC with the offset written out."""

    def __init__(self, fmt: str | None = PLAIN_FORMAT, datefmt: str | None = None) -> None:
        super().__init__(fmt, datefmt)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return utc_timestamp(record)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": utc_timestamp(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", ""),
            "process": record.process,
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class RefusalWithoutTraceback(logging.Filter):
    """Drops the traceback Django attaches to "Forbidden (Permission denied)".

    A 403 is an ordinary answer to staff outside a role, not a fault: the one warning line
    (path, status, request id) says all there is, and a traceback per refusal hid the real
    failures in the logs. Set on the `django.request` logger, where Django logs it.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True


class BadHostWithoutTraceback(logging.Filter):
    """Drops the traceback Django attaches to "Invalid HTTP_HOST header".

    Any scanner on the internet sends a Host that is not ours; the answer is a 400 and the one
    error line (the host given, the path, the request id) says all there is. A traceback per
    scan filled the logs with Django's own stack. Set on the `django.security.DisallowedHost`
    logger, where Django logs it.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True
