"""DATABASE_CONN_MAX_AGE: how long a process keeps its database connection; a value that is not
a whole number of seconds (0 or more) stops start-up naming the variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRINT_SETTING = ("import django; django.setup(); from django.conf import settings; "
                 "print(settings.DATABASES['default']['CONN_MAX_AGE'], "
                 "settings.DATABASES['default']['CONN_HEALTH_CHECKS'])")


def start(value: str | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "backoffice.settings", "SECRET_KEY": "x"}
    env.pop("DATABASE_CONN_MAX_AGE", None)
    if value is not None:
        env["DATABASE_CONN_MAX_AGE"] = value
    return subprocess.run([sys.executable, "-c", PRINT_SETTING], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_connections_are_opened_per_request_unless_asked_and_checked_before_reuse() -> None:
    assert start(None).stdout.split() == ["0", "True"]
    assert start("60").stdout.split() == ["60", "True"]


@pytest.mark.parametrize(("value", "reason"), [("sixty", "expected an integer"),
                                               ("-1", "must be at least 0")])
def test_a_bad_value_stops_start_up_naming_the_variable(value: str, reason: str) -> None:
    result = start(value)
    assert result.returncode != 0
    assert f"ImproperlyConfigured: DATABASE_CONN_MAX_AGE: {reason}" in result.stderr
