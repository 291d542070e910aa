"""Fixtures shared by the whole suite: the real sandbox and the real services."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.sandbox_process import SandboxProcess

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop

# Browser fixtures (`browser`, `page`, `staff_login`) live in tests/browser.py.
pytest_plugins = ["tests.browser"]


@pytest.fixture(scope="session")
def sandbox_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxProcess]:
    process = SandboxProcess(tmp_path_factory.mktemp("sandbox"))
    process.start()
    yield process
    process.stop()


@pytest.fixture
def sandbox(sandbox_process: SandboxProcess) -> SandboxProcess:
    """A running sandbox, reset to a fresh demo account before the test."""
    sandbox_process.reset()
    return sandbox_process


def window_open_now() -> str:
    """An SMS marketing window open from an hour ago to twelve hours ahead, Shanghai time."""
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    now = datetime.now(ZoneInfo("Asia/Shanghai"))
    return f"{now - timedelta(hours=1):%H:%M}-{now + timedelta(hours=12):%H:%M}"


@pytest.fixture(autouse=True)
def marketing_window(request: pytest.FixtureRequest, settings: Any,
                     monkeypatch: pytest.MonkeyPatch) -> str:
    """Marketing campaigns send whatever the hour the suite runs at: outside 08:00-21:00
    Shanghai time a test's campaign would otherwise wait for the morning. Tests that move the
    clock name the window they assume with `@pytest.mark.marketing_window("08:00-21:00")`. Set
    in the environment too, for the workers and servers a test starts."""
    marker = request.node.get_closest_marker("marketing_window")
    window: str = marker.args[0] if marker else window_open_now()
    settings.SMS_MARKETING_WINDOW = window
    monkeypatch.setenv("SMS_MARKETING_WINDOW", window)
    return window


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Every test starts in English: a request in another language leaves that language
    active in the test's thread (LocaleMiddleware does not switch back)."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Celery tasks run in the calling thread at `.delay()` (after commit, like the real ones)."""
    from backoffice.celery import app

    previous = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = previous


@pytest.fixture
def make_user(django_user_model: Any) -> Callable[..., Any]:
    """`make_user(username, *groups)`: a staff member in the named roles (created first if
    missing). No password: tests sign in with `force_login`, and hashing one costs a second."""
    from django.contrib.auth.models import Group

    from backoffice.security.roles import setup_roles

    def make(username: str, *groups: str) -> Any:
        setup_roles()
        user = django_user_model.objects.create_user(username=username, password=None,
                                                     is_staff=True)
        user.groups.set(Group.objects.filter(name__in=groups))
        return django_user_model.objects.get(pk=user.pk)  # fresh permission cache

    return make


def services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES") == "1"


def need(reason_missing: str | None) -> None:
    """Skip (or, with REQUIRE_SERVICES=1, fail) a test whose service is missing."""
    if reason_missing is None:
        return
    if services_required():
        pytest.fail(f"{reason_missing} (REQUIRE_SERVICES=1)")
    pytest.skip(reason_missing)


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        need("REDIS_URL is not set")
        raise AssertionError("unreachable")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        need(f"Redis at {url} is not reachable: {error}")
    return url


@pytest.fixture
def postgres(django_db_blocker: object) -> None:
    from django.db import connection

    if connection.vendor != "postgresql":
        need("DATABASE_URL does not point at PostgreSQL")


@pytest.fixture
def provider(sandbox: SandboxProcess, settings) -> SandboxProcess:
    """Points the back-office's provider settings at the (reset) sandbox, as `make run` does."""
    info = sandbox.info
    settings.PROVIDER = {
        "sms": {"api_url": info["sms_api_url"], "token": info["sms"]["token"]},
        "topup": {"traffic_url": info["traffic_url"], "appkey": info["topup"]["appkey"],
                  "appsecret": info["topup"]["appsecret"]},
        "storage": {"url": info["storage_url"], "bucket": info["storage"]["bucket"],
                    "operator": info["storage"]["operator"],
                    "password": info["storage"]["password"], "signature": "current",
                    "lines": dict(info.get("storage_lines") or {})},
        "media": {"process_url": info["process_url"]},
        "delivery": {"delivery_url": info["delivery_url"], "purge_url": info["purge_url"],
                     "token_secret": info["delivery"]["token_secret"]},
        "console": {"console_url": info["console_url"],
                    "username": info["console"]["username"],
                    "password": info["console"]["password"]},
        "sandbox_control_url": info["control_url"],
    }
    return sandbox


@pytest.fixture(scope="session", autouse=True)
def audit_guard_lifted_for_database_resets() -> Iterator[None]:
    """The database refuses to delete audit entries (triggers, `backoffice 0006`); a
    transactional test's reset (Django's flush) lifts that guard for the reset alone, in the
    reset's transaction, as an operator archiving old entries would."""
    from django.db.backends.base.operations import BaseDatabaseOperations

    from backoffice.security.audit_chain import TABLE, guard_lifted

    original = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self: BaseDatabaseOperations, sql_list: list[str]) -> None:
        if not any(TABLE in statement for statement in sql_list):
            return original(self, sql_list)
        with guard_lifted(self.connection):
            return original(self, sql_list)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BaseDatabaseOperations, "execute_sql_flush", execute_sql_flush)
        yield
