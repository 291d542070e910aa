"""In a real browser, in English and in Chinese (issue 29, finding 21): a playlist added to
the Concatenate list becomes a row of the list (its path as text, with its buttons), and only
the one empty field left is for typing the next."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADD = {"en": "Add a playlist", "zh-hans": "添加播放列表"}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_added_playlists_turn_into_rows(page, live_server, staff_login, language):
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/media/concat/?path=/a/index.m3u8")
    page.fill("#playlist-rows input[type=text]", "/b/index.m3u8")
    page.click("#add-row")
    page.wait_for_load_state()

    rows = page.locator("#playlist-rows li.playlist-row")
    assert rows.locator(".playlist-path").all_inner_texts() == ["/a/index.m3u8",
                                                                  "/b/index.m3u8"]
    assert rows.locator("input[type=text]").count() == 0
    typing = page.locator("#playlist-rows input[type=text]")
    assert typing.count() == 1 and typing.input_value() == ""
    assert page.locator("#playlist-rows li.playlist-new label").inner_text() == ADD[language]
    # Each row's path and buttons share one line.
    path, buttons = rows.first.evaluate("""li => [li.querySelector('.playlist-path'),
        li.querySelector('.media-row-buttons')].map(e => {
            const box = e.getBoundingClientRect(); return [box.top, box.bottom]; })""")
    assert path[0] < buttons[1] and buttons[0] < path[1]
