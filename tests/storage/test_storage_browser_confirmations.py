"""In a real browser, in English and in Chinese: entries ticked on a folder page (one by one
or all at once) are deleted together after one confirmation page that lists them and says how
many; "Go back" deletes nothing."""

from __future__ import annotations

import io

import pytest

from storage.client import NotFound

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDING = {
    "en": ("Delete the 2 selected entries of /docs in demo-bucket?", "Delete 2 entries",
           "2 entries deleted."),
    "zh-hans": ("删除 demo-bucket 的 /docs 中选中的 2 个条目？", "删除 2 个条目",
                "已删除 2 个条目。"),
}


@pytest.fixture
def docs(provider, sandbox_storage):
    for name in ("a.txt", "b.txt", "c.txt"):
        sandbox_storage.upload(f"/docs/{name}", io.BytesIO(b"x" * 10))
    return sandbox_storage


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_ticked_files_are_deleted_after_one_confirmation(page, live_server, staff_login, docs,
                                                         language):
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    question, button, done = WORDING[language]
    page.goto(f"{live_server.url}/storage/?path=/docs")
    page.check("input[value='file:/docs/a.txt']")
    page.check("input[value='file:/docs/c.txt']")

    page.click("#delete-selected")
    assert page.inner_text("#confirm-question") == question
    assert page.locator("#confirm-items li").all_inner_texts() == ["/docs/a.txt", "/docs/c.txt"]
    page.click("#confirm-back")
    page.wait_for_selector("#listing-table")
    assert docs.head("/docs/a.txt").size == 10

    page.check("input[value='file:/docs/a.txt']")
    page.check("input[value='file:/docs/c.txt']")
    page.click("#delete-selected")
    assert page.inner_text("#confirm-action") == button
    page.click("#confirm-action")
    page.wait_for_selector("#listing-table")
    assert done in page.inner_text(".messages")
    assert page.locator("tr[data-name]").evaluate_all("rows => rows.map(r => r.dataset.name)"
                                                      ) == ["b.txt"]
    for path in ("/docs/a.txt", "/docs/c.txt"):
        with pytest.raises(NotFound):
            docs.head(path)


def test_select_all_ticks_every_entry_of_the_page(page, live_server, staff_login, docs):
    staff_login("content", groups=("Content managers",))
    page.goto(f"{live_server.url}/storage/?path=/docs")
    page.check("#select-all")
    assert page.locator("input[data-select]:checked").count() == 3
    page.click("#delete-selected")
    assert page.inner_text("#confirm-question") == (
        "Delete the 3 selected entries of /docs in demo-bucket?")
    assert docs.head("/docs/b.txt").size == 10


def test_a_single_delete_button_asks_on_the_same_page(page, live_server, staff_login, docs):
    staff_login("content", groups=("Content managers",))
    page.goto(f"{live_server.url}/storage/?path=/docs")
    page.click("tr[data-name='b.txt'] .row-menu summary")  # the row's compact menu
    page.click("tr[data-name='b.txt'] [data-action=delete]")
    assert page.inner_text("#confirm-question") == "Delete the file /docs/b.txt of demo-bucket?"
    page.click("#confirm-action")
    page.wait_for_selector("#listing-table")
    with pytest.raises(NotFound):
        docs.head("/docs/b.txt")
