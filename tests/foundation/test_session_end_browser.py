"""In a real browser: when the session ends while someone is editing, the sign-in page says
it ended and after how long without activity, and signing in again returns to the form with
what was typed (kept in the browser tab, never on the server). A person who signed out
themselves is not told their session ended."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENDED = {
    "en": "Your session ended after 8 hours without activity.",
    "zh-hans": "您的会话因 8 小时无操作已结束。",
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_ended_session_is_named_at_sign_in_and_the_form_comes_back_filled(
        page, live_server, staff_login, language):
    staff_login("templates", groups=("SMS operators",))
    if language != "en":
        with page.expect_navigation():
            page.select_option("#language-select", language)
    page.goto(f"{live_server.url}/sms/templates/new/")
    page.fill("#id_title", "取件通知")
    page.fill("#id_temp_sign", "示例商城")
    page.fill("#id_content", "您的包裹已到{$var1}，请及时取件。")
    # The form's live check answers after typing, and every answer renews the session
    # cookie: let it finish before the session "ends".
    page.wait_for_timeout(600)
    page.wait_for_load_state("networkidle")
    page.context.clear_cookies(name="sessionid")  # what 8 idle hours do to the session
    with page.expect_navigation():
        page.click("#save-template")

    assert "/accounts/login/" in page.url
    assert ENDED[language] in page.locator("#session-ended").inner_text()
    page.fill("#id_username", "templates")
    page.fill("#id_password", "S3cret-pass!")
    with page.expect_navigation():
        page.click("#sign-in")

    assert page.url == f"{live_server.url}/sms/templates/new/"
    assert page.locator("#id_title").input_value() == "取件通知"
    assert page.locator("#id_content").input_value() == "您的包裹已到{$var1}，请及时取件。"
    assert page.locator("#formkeep-notice").is_visible()


def test_signing_out_is_not_called_an_ended_session(page, live_server, staff_login):
    staff_login("alice", groups=("SMS operators",))
    with page.expect_navigation():
        page.click("#logout")
    assert "/accounts/login/" in page.url
    assert page.locator("#session-ended").count() == 0
