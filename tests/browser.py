"""Playwright driving Debian's chromium, headless, for the browser tests.

Nothing is downloaded: the browser is the system's /usr/bin/chromium. Without it the browser
tests are skipped with the reason, or fail when REQUIRE_SERVICES=1 (as on CI).

Every page sends a Content-Security-Policy without 'unsafe-inline' or 'unsafe-eval' for
scripts, so `page.wait_for_function` takes a function (`"() => ..."`), never a bare expression
(which Playwright evaluates with eval); and a page whose script the policy blocks fails its
test (the `page` fixture collects the browser's CSP reports).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator

import pytest

# The most the requests the page left running may take to finish once the page is closed.
REQUESTS_LEFT_TIMEOUT_S = 3.0

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-quic", "--no-first-run", "--disable-component-update",
                 "--disable-sync"]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from tests.conftest import need

    executable = chromium_path()
    if executable is None:
        need("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS,
                                              headless=True)
        yield instance
        instance.close()


@pytest.fixture
def page(browser, request: pytest.FixtureRequest) -> Iterator[object]:
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    violations: list[str] = []
    new_page = context.new_page()
    new_page.on("console", lambda message: violations.append(message.text)
                if "Content Security Policy" in message.text else None)
    yield new_page
    context.close()
    if "live_server" in request.fixturenames:
        wait_for_requests_left_running(request.getfixturevalue("live_server"))
    assert violations == [], "the page broke its Content-Security-Policy"


def wait_for_requests_left_running(live_server: object) -> None:
    """Let the live server finish what the page asked for as the test ended (a preview, a
    status poll): emptying the database for the next test while one of them still queries
    it can deadlock the two. The live server runs each connection on a thread of its own,
    which it keeps in a list (socketserver's `_threads`, as its own shutdown joins them); the
    page's connections are closed with its context, so their threads end with their request.
    Only the live server's: other servers of the session keep idle connections open."""
    httpd = getattr(getattr(live_server, "thread", None), "httpd", None)
    threads = list(getattr(httpd, "_threads", None) or [])
    deadline = time.monotonic() + REQUESTS_LEFT_TIMEOUT_S
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))


@pytest.fixture
def staff_login(page, live_server, django_user_model):
    """Returns a function that creates a staff user in the given groups and signs in through
    the real login page."""
    from django.contrib.auth.models import Group

    from backoffice.security.roles import setup_roles

    def login(username: str = "staff", groups: tuple[str, ...] = (), superuser: bool = False):
        setup_roles()
        user = django_user_model.objects.create_user(username=username, password="S3cret-pass!",
                                                     is_staff=True, is_superuser=superuser)
        user.groups.set(Group.objects.filter(name__in=groups))
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", "S3cret-pass!")
        page.click("#sign-in")
        page.wait_for_url(f"{live_server.url}/")
        return user

    return login
