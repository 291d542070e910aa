"""In a real browser, in English and in Chinese (issue 29, finding 12): a template too long
for the provider is told with one count and one limit, the same in the field's live problem
and in the preview; and a field that stops typing at its maxlength says its limit."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "en": ("With its signature in brackets the template has 350 characters; at most 349 are "
           "allowed.", "At most 11 characters."),
    "zh-hans": ("加上括号内的签名，模板共有 350 个字符；最多允许 349 个。", "最多 11 个字符。"),
}


def wait_for_check(page) -> None:
    page.wait_for_timeout(600)
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_one_limit_one_count_one_wording(page, live_server, staff_login, language):
    too_long, title_limit = TEXTS[language]
    staff_login("templates", groups=("SMS operators",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/sms/templates/new/")
    assert page.inner_text('[data-field="title"] .field-limit') == title_limit
    page.fill("#id_temp_sign", "abc")
    page.fill("#id_content", "好" * 345)
    wait_for_check(page)
    live = page.locator('[data-field="content"] .live-problems').inner_text()
    assert too_long in live
    assert page.inner_text("#preview-summary") == too_long
    for other in ("348", "350 characters: too long"):
        assert other not in page.locator("main").inner_text().replace(too_long, "")
