"""Log lines of the back-office and of the sandbox carry UTC time stamps with the offset written
out, whatever the process's local zone (Django sets it to TIME_ZONE; gunicorn's master keeps
the machine's). `make run` as a whole is checked in test_make_run."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from backoffice.operations.logs import JsonFormatter, UtcFormatter
from sandbox.core.logs import UtcFormatter as SandboxUtcFormatter

# 2026-01-02 03:04:05.678 UTC, which is 11:04 in Shanghai.
MOMENT = datetime(2026, 1, 2, 3, 4, 5, 678_000, tzinfo=UTC).timestamp()


@pytest.fixture
def shanghai_local_time() -> Iterator[None]:
    before = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Shanghai"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def record() -> logging.LogRecord:
    entry = logging.LogRecord("sms.tasks", logging.INFO, __file__, 1, "sent %s", ("3",), None)
    entry.created = MOMENT
    return entry


def test_plain_lines_are_stamped_in_utc_with_the_offset(shanghai_local_time):
    line = UtcFormatter().format(record())
    assert line == "2026-01-02T03:04:05.678+00:00 INFO sms.tasks: sent 3"


def test_json_lines_use_the_same_stamp(shanghai_local_time):
    assert '"time": "2026-01-02T03:04:05.678+00:00"' in JsonFormatter().format(record())


def test_sandbox_lines_are_stamped_in_utc_with_the_offset(shanghai_local_time):
    from sandbox import settings as sandbox_settings

    logging: Any = sandbox_settings.LOGGING
    formatter_config = logging["formatters"]["plain"]
    formatter = SandboxUtcFormatter(formatter_config["fmt"])
    assert formatter_config["()"] == "sandbox.core.logs.UtcFormatter"
    assert formatter.format(record()).startswith("2026-01-02T03:04:05.678+00:00 sandbox INFO")


def test_the_back_office_configuration_uses_the_utc_formatter():
    from django.conf import settings

    logging: Any = settings.LOGGING
    assert logging["formatters"]["plain"] == {
        "()": "backoffice.operations.logs.UtcFormatter"}
