"""In a real browser: a form sent after its CSRF token expired gets a page in the layout
saying so (not Django's yellow 403), in the person's language, with a way back to the form,
and the form comes back filled with what was typed, passwords never."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def expire_the_form(page) -> None:
    """What a page left open overnight amounts to: the CSRF cookie its token was made from is
    gone."""
    page.context.clear_cookies(name="csrftoken")


def test_an_expired_sign_in_form_says_so_and_keeps_the_user_name_not_the_password(
        page, live_server):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "S3cret-pass!")
    expire_the_form(page)
    with page.expect_navigation():
        page.click("#sign-in")

    assert page.locator("h1").inner_text() == "This form expired"
    assert "CSRF" not in page.content()
    assert page.locator("header.topbar").count() == 1  # the site's layout
    assert "1 field" in page.locator("#form-expired-kept").inner_text()
    assert "S3cret-pass!" not in page.content()

    with page.expect_navigation():  # the same address, fetched again
        page.click("#form-expired-back")
    assert page.locator("#id_username").input_value() == "alice"
    assert page.locator("#id_password").input_value() == ""
    assert page.locator("#formkeep-notice").is_visible()

    page.reload()  # the values came back once; a page opened again is the server's own
    assert page.locator("#id_username").input_value() == ""
    assert not page.locator("#formkeep-notice").is_visible()


def test_an_expired_template_form_comes_back_filled_in_chinese(page, live_server, staff_login):
    staff_login("templates", groups=("SMS operators",))
    with page.expect_navigation():
        page.select_option("#language-select", "zh-hans")
    page.goto(f"{live_server.url}/sms/templates/new/")
    page.fill("#id_title", "取件通知")
    page.fill("#id_temp_sign", "示例商城")
    page.fill("#id_content", "您的包裹已到{$var1}，请及时取件。")
    page.wait_for_timeout(600)  # the live check's answer comes before the expiry
    page.wait_for_load_state("networkidle")
    expire_the_form(page)
    with page.expect_navigation():
        page.click("#save-template")

    assert page.locator("h1").inner_text() == "表单已过期"
    assert "CSRF" not in page.content()
    with page.expect_navigation():
        page.click("#form-expired-back")
    assert page.locator("#id_title").input_value() == "取件通知"
    assert page.locator("#id_temp_sign").input_value() == "示例商城"
    assert page.locator("#id_content").input_value() == "您的包裹已到{$var1}，请及时取件。"
    assert "表单" in page.locator("#formkeep-notice").inner_text()
