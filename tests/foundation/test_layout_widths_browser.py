"""In a real browser, in English and in Chinese, every main page at 1280, 1024 and 768 px wide
(issue 29, finding 19): the page never scrolls sideways (a wide table scrolls inside its
card), the top bar stays on one row, and below a wide screen the user's links are folded
into a menu."""

from __future__ import annotations

import io

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1280, 1024, 768)
PAGES = (
    "/", "/audit/", "/accounts/profile/",
    "/sms/", "/sms/templates/", "/sms/send/", "/sms/campaigns/", "/sms/report/",
    "/sms/suppression/",
    "/topup/", "/topup/orders/", "/topup/orders/new/", "/topup/bulk/", "/topup/balance/",
    "/topup/reports/", "/topup/products/", "/topup/api-tokens/",
    "/storage/",
    "/media/", "/media/jobs/", "/media/concat/", "/media/clip/",
    "/delivery/", "/delivery/links/", "/delivery/images/", "/delivery/rules/",
    "/delivery/purge/", "/services/",
)
MEASURE = """() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    bar: document.querySelector('.topbar').getBoundingClientRect().height,
    barItems: [...document.querySelectorAll('.topbar > *')]
        .filter(e => e.getBoundingClientRect().height > 0)
        .map(e => Math.round(e.getBoundingClientRect().top)),
    inline: !!document.querySelector('.topbar-right') &&
        getComputedStyle(document.querySelector('.topbar-right')).display !== 'none',
    folded: !!document.querySelector('#user-menu') &&
        getComputedStyle(document.querySelector('#user-menu')).display !== 'none',
})"""


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_main_page_fits_each_width_without_sideways_scroll(
        page, live_server, staff_login, provider, language):
    staff_login("root", superuser=True)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    problems = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for path in PAGES:
            page.goto(f"{live_server.url}{path}")
            found = page.evaluate(MEASURE)
            if found["page"] > 0:
                problems.append(f"{width}px {path}: scrolls sideways by {found['page']}px")
            if len(set(found["barItems"])) > 1 and max(found["barItems"]) - min(
                    found["barItems"]) > 8:
                problems.append(f"{width}px {path}: the top bar takes more than one row")
            wide = width >= 1280
            if found["inline"] != wide or found["folded"] == wide:
                problems.append(f"{width}px {path}: the user's links are "
                                f"{'folded' if found['folded'] else 'inline'}")
    assert problems == []


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_file_row_has_one_compact_menu_and_its_name_whole(
        page, live_server, staff_login, provider, language):
    from console.services import default_service
    from storage.services.connection import storage_client

    name = "a-rather-long-file-name-for-a-narrow-screen-2024.jpg"
    staff_login("root", superuser=True)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/storage/")  # the environment's service gets its record
    storage_client(default_service()).upload(f"/{name}", io.BytesIO(b"x" * 10))
    page.set_viewport_size({"width": 768, "height": 900})
    page.goto(f"{live_server.url}/storage/")
    row = page.locator(f"tr[data-name='{name}']")
    # No delete button shows until the row's menu is opened: never two red ones side by side.
    deletes = row.locator("[data-action^=delete]")
    assert deletes.count() == 2
    assert not deletes.nth(0).is_visible() and not deletes.nth(1).is_visible()
    row.locator(".row-menu summary").click()
    assert deletes.nth(0).is_visible() and deletes.nth(1).is_visible()
    # The name is on one line (never broken inside a word), the page does not scroll sideways.
    link = row.locator("td.name a")
    assert link.evaluate("a => a.getClientRects().length") == 1
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
