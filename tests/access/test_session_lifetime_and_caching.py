"""A signed-in session ends SESSION_MAX_S after its sign-in, however active; and whatever a
signed-in person is shown or exports is `Cache-Control: private, no-store`, so that no proxy
and no shared browser cache keeps it (static files and the probes stay cacheable and cheap)."""

from __future__ import annotations

import time

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.test import Client

from backoffice.security.sessions import SIGNED_IN_AT

pytestmark = pytest.mark.django_db

PRIVATE = "private, no-store"


def session_of(client: Client) -> SessionStore:
    return SessionStore(session_key=client.cookies["sessionid"].value)


def age_the_sign_in(client: Client, seconds: int) -> None:
    session = session_of(client)
    session[SIGNED_IN_AT] = session[SIGNED_IN_AT] - seconds
    session.save()


def test_the_sign_in_time_is_kept_in_the_session(client, make_user):
    before = int(time.time())
    client.force_login(make_user("ann", "SMS operators"))
    assert before <= session_of(client)[SIGNED_IN_AT] <= int(time.time())


def test_an_active_session_older_than_the_limit_ends_at_the_next_request(client, make_user,
                                                                         settings):
    settings.SESSION_MAX_S = 3600
    client.force_login(make_user("ann", "SMS operators"))
    age_the_sign_in(client, 3599 - 5)
    assert client.get("/").status_code == 200  # active, and young enough
    age_the_sign_in(client, 10)

    old_key = client.cookies["sessionid"].value
    response = client.get("/sms/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert not Session.objects.filter(session_key=old_key).exists()
    assert client.get("/").status_code == 302  # ended for good, not for one request


def test_the_api_refuses_a_session_older_than_the_limit(client, make_user, settings):
    settings.SESSION_MAX_S = 3600
    client.force_login(make_user("tina", "Top-up operators"))
    age_the_sign_in(client, 3601)
    assert client.get("/api/topup/orders/X1/").status_code in (401, 403)


def test_a_session_from_before_the_limit_existed_starts_its_clock_at_its_next_request(
        client, make_user):
    client.force_login(make_user("ann", "SMS operators"))
    session = session_of(client)
    del session[SIGNED_IN_AT]
    session.save()

    assert client.get("/").status_code == 200  # still signed in: nothing is lost
    assert abs(session_of(client)[SIGNED_IN_AT] - time.time()) < 5


def test_the_absolute_limit_defaults_to_seven_days(settings):
    assert settings.SESSION_MAX_S == 7 * 24 * 3600


def test_signed_in_pages_and_exports_are_private_and_not_stored(client, make_user):
    client.force_login(make_user("ann", "SMS operators", "Auditors"))
    assert client.get("/")["Cache-Control"] == PRIVATE
    assert client.get("/sms/")["Cache-Control"] == PRIVATE
    export = client.get("/audit/export.csv")
    assert export.status_code == 200 and export["Cache-Control"] == PRIVATE


def test_an_answer_that_sets_its_own_cache_control_keeps_it(client, make_user):
    client.force_login(make_user("tina", "Top-up operators"))
    made = client.post("/topup/api-tokens/", {"name": "ERP", "scopes": ["orders:read"],
                                              "days": "30"})
    shown = client.get(made["Location"])  # the page showing the new key, once
    assert shown.status_code == 200 and shown["Cache-Control"] == "no-store"


def test_static_files_and_the_health_probe_are_left_alone(client, make_user):
    client.force_login(make_user("ann", "SMS operators"))
    static = client.get("/static/css/app.css")
    assert static.status_code == 200 and "no-store" not in static.get("Cache-Control", "")
    health = client.get("/health")
    assert health.status_code == 200 and "Cache-Control" not in health
