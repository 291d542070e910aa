"""A signed-in session is written again once a minute at most, not at every request."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from backoffice.security.session_touch import TOUCHED_AT

pytestmark = pytest.mark.django_db


def session_writes(client, url: str = "/") -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    sql = [query["sql"] for query in captured.captured_queries]
    return sum(1 for one in sql if one.startswith(("UPDATE", "INSERT")) and "django_session" in one)


def test_a_request_soon_after_the_last_write_does_not_write_the_session(client, make_user):
    client.force_login(make_user("ann", "SMS operators"))
    assert session_writes(client) == 1  # never touched by this rule: pushed on now
    assert session_writes(client) == 0
    assert session_writes(client) == 0


def test_a_request_a_touch_interval_after_the_last_write_writes_it_again(client, make_user):
    client.force_login(make_user("ann", "SMS operators"))
    session_writes(client)
    session = client.session
    session[TOUCHED_AT] = int(time.time()) - settings.SESSION_TOUCH_S
    session.save()

    assert session_writes(client) == 1


def test_the_touch_interval_is_a_small_part_of_the_idle_limit():
    assert 0 < settings.SESSION_TOUCH_S <= 60
    assert settings.SESSION_TOUCH_S <= settings.SESSION_IDLE_S // 10
