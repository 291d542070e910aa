"""The production profile: `check --deploy --fail-level WARNING` passes with HTTPS=true; the
HTTP to HTTPS redirect trusts X-Forwarded-Proto; request ids are taken or made, returned, on
every JSON log line, and carried into the tasks a request queues."""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys
import time

import pytest
from django.test import Client

from backoffice.operations import request_ids
from backoffice.operations.logs import JsonFormatter
from tests.sandbox_process import ROOT


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT,
                          env={**clean, **env}, capture_output=True, text=True, timeout=120)


def test_the_deploy_check_passes_with_https_on():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="false",
                        HTTPS="true", SECRET_KEY=secrets.token_urlsafe(50),
                        ALLOWED_HOSTS="backoffice.example.com")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_deploy_check_fails_without_the_production_profile():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="false",
                        SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout


@pytest.mark.parametrize(("variable", "value"), [
    ("HTTPS", "sometimes"), ("LOG_FORMAT", "xml"), ("TOPUP_CALLBACK_ALLOWED_IPS", "10.0.0.0/33"),
    ("TRUSTED_PROXY_IPS", "nginx"), ("HSTS_SECONDS", "a year"),
])
def test_unknown_values_of_the_new_variables_stop_start_up_naming_them(variable, value):
    result = run_manage("check", **{"SECRET_KEY": "x", "HTTPS": "true", variable: value})
    assert result.returncode != 0 and f"{variable}:" in result.stderr


@pytest.mark.django_db
def test_https_redirects_plain_requests_and_trusts_the_proxys_header(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_REDIRECT_EXEMPT = [r"^health$"]
    settings.SECURE_HSTS_SECONDS = 3600
    client = Client()
    plain = client.get("/accounts/login/")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    secure = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200 and "max-age=3600" in secure["Strict-Transport-Security"]
    assert client.get("/health").status_code == 200  # probes talk plain HTTP to gunicorn


def test_a_request_id_is_made_or_taken_and_returned():
    client = Client()
    made = client.get("/health")["X-Request-Id"]
    assert len(made) == 32
    assert client.get("/health", HTTP_X_REQUEST_ID="abc-123")["X-Request-Id"] == "abc-123"
    replaced = client.get("/health", HTTP_X_REQUEST_ID="bad id\nwith newline")["X-Request-Id"]
    assert replaced != "bad id\nwith newline" and len(replaced) == 32


def test_json_log_lines_carry_the_request_id():
    record = logging.LogRecord("sms", logging.WARNING, __file__, 1, "sent %s", ("x",), None)
    token = request_ids.current.set("req-7")
    try:
        request_ids.RequestIdFilter().filter(record)
    finally:
        request_ids.current.reset(token)
    line = json.loads(JsonFormatter().format(record))
    assert line["request_id"] == "req-7" and line["message"] == "sent x"
    assert line["level"] == "WARNING" and line["logger"] == "sms"


@pytest.mark.django_db(transaction=True)
def test_a_task_queued_during_a_request_runs_with_its_request_id(redis_url):
    from celery.contrib.testing.worker import start_worker

    from backoffice.celery import app

    seen: list[str] = []

    @app.task(name="tests.foundation.probe_request_id")
    def probe() -> None:
        seen.append(request_ids.current.get())

    with start_worker(app, perform_ping_check=False, pool="solo", shutdown_timeout=30):
        token = request_ids.current.set("req-from-web")
        try:
            probe.delay()
        finally:
            request_ids.current.reset(token)
        deadline = time.monotonic() + 30
        while not seen and time.monotonic() < deadline:
            time.sleep(0.1)
    assert seen == ["req-from-web"]
    assert request_ids.current.get() == ""
