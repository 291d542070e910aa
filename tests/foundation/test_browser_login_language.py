"""A staff member signs in through the real page, sees the dashboard, switches to Chinese and
signs out, in a real (headless) chromium."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_staff_signs_in_switches_to_chinese_and_signs_out(page, live_server, staff_login):
    staff_login("alice", groups=("SMS operators",))

    assert page.locator("h1").inner_text() == "Dashboard"
    assert page.locator("#tile-sms").is_visible()
    assert page.locator("#tile-topup").count() == 0  # not her group's service

    with page.expect_navigation():  # choosing a language submits the form
        page.select_option("#language-select", "zh-hans")
    assert page.locator("h1").inner_text() == "仪表板"
    assert page.locator("html").get_attribute("lang") == "zh-hans"

    page.click("#logout")
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    page.goto(f"{live_server.url}/")
    assert "/accounts/login/" in page.url  # signed out: the dashboard asks for a login again
    assert page.locator("#sign-in").is_visible()
