"""In a real browser, in English and in Chinese: the API tokens table looks like every list
(rows ruled like the order list's), and "Revoke" is a visible danger button, not light text
made for the dark top bar (issue 29, finding 20)."""

from __future__ import annotations

import pytest

from topup.services.apitokens import create_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REVOKE = {"en": "Revoke", "zh-hans": "吊销"}
RED = "rgb(194, 55, 44)"  # --bad


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_token_table_is_a_list_and_revoke_a_danger_button(page, live_server, staff_login,
                                                               language):
    user = staff_login("root", superuser=True)
    create_token(user=user, name="shop", scopes=["orders:read"])
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/topup/api-tokens/")

    table_rule = page.eval_on_selector(
        "#token-table td", "cell => getComputedStyle(cell).borderBottomStyle")
    assert table_rule == "solid"
    revoke = page.locator("#token-table tbody button[type=submit]")
    assert revoke.inner_text() == REVOKE[language]
    colours = revoke.evaluate("b => { const s = getComputedStyle(b); "
                              "return [s.backgroundColor, s.color]; }")
    assert colours == [RED, "rgb(255, 255, 255)"]
    assert revoke.is_visible()
