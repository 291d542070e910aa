"""The merchant API docs in a real browser: each example has a Copy button that puts the
example on the clipboard (its script allowed by the Content-Security-Policy)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_example_is_copied_by_its_button(page, live_server, staff_login):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                   origin=live_server.url)
    staff_login("op", groups=("Top-up operators",))
    page.goto(f"{live_server.url}/api/topup/docs/")

    examples = page.locator(".topup-docs pre")
    buttons = page.locator(".topup-docs .copy-example")
    assert examples.count() >= 5 and buttons.count() == examples.count()

    curl = page.locator(".topup-op pre code.language-bash").first
    button = curl.locator("xpath=ancestor::div[@class='example']/button")
    button.click()
    page.wait_for_function("() => [...document.querySelectorAll('.copy-example')]"
                           ".some(b => b.textContent === 'Copied')")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == curl.text_content()
    assert copied.startswith(f"curl -sS -X POST '{live_server.url}/api/topup/orders/'")


def test_without_clipboard_access_the_example_is_selected_for_ctrl_c(page, live_server,
                                                                     staff_login):
    # As in a browser that offers no clipboard to the page (plain http on another host).
    page.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    staff_login("op", groups=("Top-up operators",))
    page.goto(f"{live_server.url}/api/topup/docs/")

    answer = page.locator(".topup-op pre code.language-json").first
    button = answer.locator("xpath=ancestor::div[@class='example']/button")
    button.click()

    assert "Ctrl+C" in button.text_content()
    selected = page.evaluate("() => window.getSelection().toString()")
    assert selected.strip() == answer.text_content().strip()
