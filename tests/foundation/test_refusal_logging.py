"""A refused request (403) is one log line without a traceback, whichever part refuses it: a
page's permission check, the CSRF check, or the API's permission class. A refusal is ordinary
staff traffic, and a traceback per refusal buried real failures in the logs."""

from __future__ import annotations

import logging
import sys

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def refusal_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.levelno >= logging.WARNING]


def assert_logged_once_without_traceback(caplog: pytest.LogCaptureFixture, path: str) -> None:
    records = refusal_records(caplog)
    assert len(records) == 1, [(r.name, r.getMessage()) for r in records]
    assert records[0].exc_info is None
    assert "Forbidden" in records[0].getMessage() and path in records[0].getMessage()


def test_a_page_outside_ones_role_is_logged_once_without_traceback(client, make_user, caplog):
    client.force_login(make_user("sam", "SMS operators"))
    with caplog.at_level(logging.INFO):
        response = client.get("/topup/orders/")
    assert response.status_code == 403
    assert_logged_once_without_traceback(caplog, "/topup/orders/")


def test_a_form_without_csrf_token_is_logged_once_without_traceback(make_user, caplog):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("tina", "Top-up operators"))
    with caplog.at_level(logging.INFO):
        response = client.post("/topup/balance/refresh/", {})
    assert response.status_code == 403
    assert_logged_once_without_traceback(caplog, "/topup/balance/refresh/")


def test_an_api_call_without_permission_is_logged_once_without_traceback(
    client, make_user, caplog
):
    client.force_login(make_user("sam", "SMS operators"))
    with caplog.at_level(logging.INFO):
        response = client.get("/api/topup/orders/X1/")
    assert response.status_code == 403
    assert_logged_once_without_traceback(caplog, "/api/topup/orders/X1/")


def test_a_failure_keeps_its_traceback():
    """The filter drops the traceback of refusals only: a 500 is a fault to investigate."""
    from backoffice.operations.logs import RefusalWithoutTraceback

    try:
        raise ValueError("broken")
    except ValueError:
        failure = logging.LogRecord("django.request", logging.ERROR, __file__, 1,
                                    "Internal Server Error: %s", ("/x/",), sys.exc_info())
    failure.status_code = 500
    assert RefusalWithoutTraceback().filter(failure)
    assert failure.exc_info is not None


def test_a_bad_host_header_is_logged_once_without_traceback(client, caplog):
    """Scanners send any Host: each one is a line saying which host, not a stack."""
    with caplog.at_level(logging.INFO):
        response = client.get("/accounts/login/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    records = refusal_records(caplog)
    assert len(records) == 1, [(r.name, r.getMessage()) for r in records]
    assert records[0].name == "django.security.DisallowedHost"
    assert records[0].exc_info is None and records[0].exc_text is None
    assert "evil.example" in records[0].getMessage()
