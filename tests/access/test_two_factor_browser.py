"""In a real (headless) chromium, in English and in Chinese: a staff member enrols from the
profile page (QR code, secret, first code and password, ten recovery codes), signs in with a
password and a code, and on the account page sees the codes left and makes a new set (shown
once, with copy and download)."""

from __future__ import annotations

import base64

import pytest
from django_otp.oath import totp

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "S3cret-pass!"
TEXTS = {
    "en": {"enrolled": "Two-factor sign-in is on", "code_page": "Sign-in code",
           "dashboard": "Dashboard", "left": "You have 10 unused recovery codes.",
           "new_set": "New recovery codes", "copy": "Copy", "download": "Download"},
    "zh-hans": {"enrolled": "两步验证已开启", "code_page": "登录验证码", "dashboard": "仪表板",
                "left": "您还有 10 个未使用的恢复码。", "new_set": "新的恢复码", "copy": "复制",
                "download": "下载"},
}


def code_from(secret: str, steps_ahead: int = 0) -> str:
    text = secret.replace(" ", "")
    key = base64.b32decode(text + "=" * (-len(text) % 8))
    return f"{totp(key, drift=steps_ahead):06d}"


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_enrolment_then_a_sign_in_with_a_code(page, live_server, staff_login, language):
    texts = TEXTS[language]
    staff_login("ann", groups=("SMS operators",))
    if language != "en":
        with page.expect_navigation():
            page.select_option("#language-select", language)

    page.click("#account-link")
    assert page.locator("#totp-qr svg").is_visible()
    secret = page.inner_text("#totp-secret")
    page.fill("#id_code", code_from(secret))
    page.fill("#id_password", PASSWORD)
    page.click("#enrol-confirm")
    assert page.locator("h1").inner_text() == texts["enrolled"]
    assert page.locator("#recovery-codes li").count() == 10

    page.click("#logout")
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("#sign-in")
    page.wait_for_url(f"{live_server.url}/accounts/login/code/**")
    assert page.locator("h1").inner_text() == texts["code_page"]
    # The next time step: the enrolment already used this one, and a code is good once.
    page.fill("#id_code", code_from(secret, steps_ahead=1))
    page.click("#code-submit")
    page.wait_for_url(f"{live_server.url}/")
    assert page.locator("h1").inner_text() == texts["dashboard"]

    page.click("#account-link")
    assert page.locator("#recovery-codes-left").inner_text() == texts["left"]
    page.fill("#id_codes-password", PASSWORD)
    page.click("#new-codes")
    assert page.locator("h1").inner_text() == texts["new_set"]
    assert page.locator("#recovery-codes li").count() == 10
    assert page.locator("#recovery-copy").inner_text() == texts["copy"]
    with page.expect_download() as download:
        page.click("#recovery-download")
    kept = download.value.path().read_text().split()
    assert kept == page.locator("#recovery-codes li").all_inner_texts()


def test_a_wrong_code_is_refused_with_the_field_named(page, live_server, staff_login):
    staff_login("ann", groups=("SMS operators",))
    page.click("#account-link")
    page.fill("#id_code", "000000")
    page.fill("#id_password", PASSWORD)
    page.click("#enrol-confirm")
    assert page.locator('[data-errors-for="code"]').inner_text().startswith(
        "This code is not right")
