"""SMS_MARKETING_WINDOW: the window's rules (sms.window), and a malformed value stopping
start-up with the variable named."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from sms.window import SendingWindow, WindowError, parse_window

ROOT = Path(__file__).resolve().parents[2]
SHANGHAI = ZoneInfo("Asia/Shanghai")


def at(hour: int, minute: int = 0, day: int = 25) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=SHANGHAI)


def test_the_default_window_is_read_as_eight_to_nine() -> None:
    assert parse_window("08:00-21:00") == SendingWindow(time(8), time(21))
    assert parse_window(" 8:30 - 20:45 ") == SendingWindow(time(8, 30), time(20, 45))


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("", "expected HH:MM-HH:MM"),
        ("8-21", "expected HH:MM-HH:MM"),
        ("08:00 to 21:00", "expected HH:MM-HH:MM"),
        ("24:00-08:00", "24:00 is not a time of day"),
        ("08:00-21:60", "21:60 is not a time of day"),
        ("09:00-09:00", "opens and closes at the same time"),
    ],
)
def test_a_malformed_window_is_refused_with_the_reason(value: str, reason: str) -> None:
    with pytest.raises(WindowError, match=reason):
        parse_window(value)


def test_the_start_is_inside_and_the_end_outside() -> None:
    window = parse_window("08:00-21:00")
    assert window.contains(at(8)) and window.contains(at(20, 59))
    assert not window.contains(at(21)) and not window.contains(at(7, 59))


def test_a_window_spanning_midnight_is_open_across_it() -> None:
    window = parse_window("22:00-06:00")
    assert window.contains(at(23)) and window.contains(at(5, 59))
    assert not window.contains(at(6)) and not window.contains(at(12))


def test_the_next_opening_is_tomorrow_after_the_close_and_today_before_the_open() -> None:
    window = parse_window("08:00-21:00")
    assert window.next_opening(at(21, 30)) == at(8, day=26)
    assert window.next_opening(at(6)) == at(8)
    assert parse_window("22:00-06:00").next_opening(at(7)) == at(22)


def run_settings(value: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SMS_MARKETING_WINDOW": value, "DJANGO_SETTINGS_MODULE":
           "backoffice.settings", "SECRET_KEY": "x"}
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize("value", ["21:00", "07:00-25:00", "08:00-08:00"])
def test_a_malformed_window_stops_start_up_naming_the_variable(value: str) -> None:
    result = run_settings(value)
    assert result.returncode != 0
    assert "ImproperlyConfigured: SMS_MARKETING_WINDOW:" in result.stderr


def test_a_well_formed_window_starts() -> None:
    result = run_settings("09:30-20:00")
    assert result.returncode == 0, result.stderr


def test_the_default_window_is_the_one_the_rules_name() -> None:
    from sms.window import DEFAULT_WINDOW

    env = {name: value for name, value in os.environ.items() if name != "SMS_MARKETING_WINDOW"}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
         "print(settings.SMS_MARKETING_WINDOW)"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "backoffice.settings", "SECRET_KEY": "x"},
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == DEFAULT_WINDOW
