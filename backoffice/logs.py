"""`LOG_FORMAT=json`: one JSON object per line, for log collectors across hosts."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
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
