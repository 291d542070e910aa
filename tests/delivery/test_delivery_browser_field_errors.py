"""In a real browser, in English and in Chinese: a problem shown at its field does not start
with the field's raw key ("path: must start with /"): the field's label already names it."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXPECTED = {"en": "Must start with “/”.", "zh-hans": "必须以“/”开头。"}


@pytest.fixture(autouse=True)
def configured(settings: Any, domain: Any) -> None:
    settings.PROVIDER["delivery"] = {"delivery_url": "http://cdn.example.com",
                                     "purge_url": "http://p.example.com",
                                     "token_secret": "abc123"}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_field_error_names_no_raw_key(page: Any, live_server: Any, staff_login: Any,
                                        language: str) -> None:
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/delivery/links/")
    form = page.locator("#dl-signed form")
    form.locator("input[name='signed-path']").fill("shop/items/1.jpg")
    form.locator("button[type=submit]").click()
    errors = page.locator('#dl-signed .dl-field[data-field="signed-path"] .errorlist p')
    assert errors.all_inner_texts() == [EXPECTED[language]]
