"""In a real browser, in English and in Chinese (issue 29, finding 22): the lockout page says
until when, naming the time zone; the sign-in code page says "wait N seconds" when the
authenticator's throttle refused the code, not that the code was wrong."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.access.test_two_factor_browser import PASSWORD, code_from

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT = {"en": re.compile(r"Too many wrong codes: wait \d+ seconds"),
        "zh-hans": re.compile(r"\d+ 秒")}


def choose(page, live_server, language):
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_lockout_page_names_the_time_zone(page, live_server, django_user_model, language):
    django_user_model.objects.create_user("ann", password=PASSWORD, is_staff=True)
    choose(page, live_server, language)
    for _ in range(5):
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "ann")
        page.fill("#id_password", "wrong-password")
        page.click("#sign-in")
    message = page.locator("#lockout-message").inner_text()
    assert "Asia/Shanghai" in message and "UTC+08:00" in message


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_code_page_names_the_throttle_wait(page, live_server, staff_login, language):
    user = staff_login("ann", groups=("SMS operators",))
    choose(page, live_server, language)
    page.click("#account-link")
    secret = page.inner_text("#totp-secret")
    page.fill("#id_code", code_from(secret))
    page.fill("#id_password", PASSWORD)
    page.click("#enrol-confirm")
    page.click("#logout")
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("#sign-in")
    page.wait_for_url(f"{live_server.url}/accounts/login/code/**")
    # Earlier wrong codes: django-otp's throttle holds the authenticator for a while.
    TOTPDevice.objects.filter(user=user).update(
        throttling_failure_count=4, throttling_failure_timestamp=timezone.now())
    page.fill("#id_code", code_from(secret, steps_ahead=1))  # the right code, refused anyway
    page.click("#code-submit")
    assert WAIT[language].search(page.locator("main").inner_text())
