"""In a real browser, in English and in Chinese (issue 29, finding 21): a refused folder name
comes back in the New folder field with its problem beside it, not as a banner above an
emptied field; a file that is not there gets one specific line, not a second generic one."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLASH = {"en": "A name must not contain “/”.", "zh-hans": "名称不能包含“/”。"}
GENERIC = {"en": "it may have been deleted or moved", "zh-hans": "可能已被删除或移动"}


def sign_in(page, live_server, staff_login, language):
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_refused_folder_name_stays_in_its_field_with_the_problem(page, live_server,
                                                                   staff_login, provider,
                                                                   language):
    sign_in(page, live_server, staff_login, language)
    page.goto(f"{live_server.url}/storage/")
    page.fill("#folder-form input[name=name]", "a/b")
    page.click("#create-folder")
    page.wait_for_load_state()
    assert page.input_value("#folder-form input[name=name]") == "a/b"
    assert page.locator("#folder-form .errorlist p").all_inner_texts() == [SLASH[language]]
    assert page.locator("ul.messages").count() == 0


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_missing_file_is_said_once(page, live_server, staff_login, provider, language):
    sign_in(page, live_server, staff_login, language)
    page.goto(f"{live_server.url}/storage/file/?path=/no-such-file.txt")
    assert page.locator("#error-reason").is_visible()
    assert "no-such-file.txt" in page.locator("#error-reason").inner_text()
    assert GENERIC[language] not in page.locator("main").inner_text()
    assert page.locator("#error-generic").count() == 0
