"""Start-up refuses unknown or malformed environment values, naming the variable."""

import os
import subprocess
import sys

import pytest

from tests.sandbox_process import ROOT


def start_with(**overrides: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({"SECRET_KEY": "x", "DJANGO_SETTINGS_MODULE": "backoffice.settings", **overrides})
    return subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("variable", "value"), [
    ("DEBUG", "maybe"),
    ("DATABASE_URL", "mysql://localhost/db"),
    ("DATABASE_URL", "not a url"),
    ("REDIS_URL", "localhost:6379"),
    ("SMS_API_URL", "ftp://example.com"),
    ("STORAGE_SIGNATURE", "newest"),
    ("PROVIDER_TIMEOUT_S", "soon"),
    ("PROVIDER_TIMEOUT_S", "0"),
    ("LOG_LEVEL", "LOUD"),
    ("STORAGE_RESUMABLE_THRESHOLD", "10MB"),
    ("TOPUP_CALLBACK_GRACE_S", "ten minutes"),
    ("TOPUP_POLL_BATCH", "0"),
    ("FILE_STORAGE", "nfs"),
    ("FILE_STORAGE", "bucket"),  # without a configured bucket
    ("PROMETHEUS_MULTIPROC_DIR", "/nonexistent/metrics"),
])
def test_it_refuses_to_start_naming_the_variable(variable, value):
    result = start_with(**{variable: value})
    assert result.returncode != 0
    assert f"{variable}:" in result.stderr


def test_it_requires_a_secret_key_when_debug_is_off():
    result = start_with(SECRET_KEY="", DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_it_starts_with_good_values():
    result = start_with(DEBUG="yes", STORAGE_SIGNATURE="legacy", LOG_LEVEL="WARNING",
                        SMS_API_URL="https://sms.example.com")
    assert result.returncode == 0, result.stderr
