"""In a real browser: a new API token is shown once after a redirect (POST/redirect/GET), with
a Copy button beside it; reloading the page neither shows it again nor makes a second token."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("language", "copied"), [("en", "Copied"), ("zh-hans", "已复制")])
def test_a_new_token_is_shown_once_copied_by_its_button_and_a_reload_makes_no_second(
        page, live_server, staff_login, language, copied):
    from topup.models import ApiToken

    page.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                   origin=live_server.url)
    staff_login("op", groups=("Top-up operators",))
    if language != "en":
        with page.expect_navigation():
            page.select_option("#language-select", language)
    page.goto(f"{live_server.url}/topup/api-tokens/")
    page.fill("#id_name", "ERP")
    page.check("input[name=scopes][value='orders:read']")
    with page.expect_navigation():
        page.click("#token-create")

    assert page.url == f"{live_server.url}/topup/api-tokens/"  # redirected: a GET now
    key = page.locator("#new-token-key").inner_text()
    assert key.startswith("mt_")
    page.click("#new-token-copy")
    page.wait_for_function("(text) => document.getElementById('new-token-copy').textContent"
                           " === text", arg=copied)
    assert page.evaluate("() => navigator.clipboard.readText()") == key

    page.reload()
    assert page.locator("#new-token-key").count() == 0  # shown once
    assert key not in page.content()
    assert ApiToken.objects.count() == 1  # the reload made no second token
