"""A person renames a file from the row's More menu, moves another from its file page, and
copies a whole folder, following the worker on the progress page: in a real browser, in
English and in Simplified Chinese."""

from __future__ import annotations

import io

import pytest

from storage.client import NotFound

WORDING = {
    "en": {"renamed": "/docs/a.txt renamed to /docs/renamed.txt.",
           "moved": "/docs/b.txt moved to /archive/b.txt.",
           "question": "Copy the folder /docs and its 2 files to /docs-copy?",
           "button": "Copy the folder", "state": "completed",
           "progress": "2 of 2 files copied", "bad": "/docs is where it already is"},
    "zh-hans": {"renamed": "/docs/a.txt 已重命名为 /docs/renamed.txt。",
                "moved": "/docs/b.txt 已移动到 /archive/b.txt。",
                "question": "将文件夹 /docs 及其中的 2 个文件复制到 /docs-copy？",
                "button": "复制文件夹", "state": "已完成",
                "progress": "已复制 2 个文件中的 2 个", "bad": "/docs 就是它现在的位置"},
}


@pytest.fixture
def docs(provider, sandbox_storage):
    for path in ("/docs/a.txt", "/docs/b.txt", "/docs/deeper/c.txt"):
        sandbox_storage.upload(path, io.BytesIO(path.encode()))
    return sandbox_storage


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_person_renames_and_moves_files_and_copies_a_folder(
        page, live_server, staff_login, docs, eager_tasks, language):
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    words = WORDING[language]

    page.goto(f"{live_server.url}/storage/?path=/docs")
    page.click("tr[data-name='a.txt'] .row-menu summary")
    with page.expect_navigation():
        page.click("tr[data-name='a.txt'] [data-action=rename]")
    assert page.input_value("#id_target") == "a.txt"
    page.fill("#id_target", "renamed.txt")
    with page.expect_navigation():
        page.click("#transfer-submit")
    assert words["renamed"] in page.inner_text("body")
    assert page.inner_text("h1.storage-file-title") == "renamed.txt"

    page.goto(f"{live_server.url}/storage/file/?path=/docs/b.txt")
    with page.expect_navigation():
        page.click("#file-transfer-links [data-action=move]")
    page.fill("#id_target", "/archive/b.txt")
    with page.expect_navigation():
        page.click("#transfer-submit")
    assert words["moved"] in page.inner_text("body")
    with pytest.raises(NotFound):
        docs.head("/docs/b.txt")

    page.goto(f"{live_server.url}/storage/")
    page.click("tr[data-name='docs'] .row-menu summary")
    with page.expect_navigation():
        page.click("tr[data-name='docs'] [data-action=copy]")
    with page.expect_navigation():
        page.click("#transfer-submit")  # onto itself: refused at the field, nothing asked
    assert words["bad"] in page.inner_text("[data-field=target]")
    assert page.input_value("#id_target") == "/docs"
    page.fill("#id_target", "/docs-copy")
    with page.expect_navigation():
        page.click("#transfer-submit")
    assert page.inner_text("#confirm-question") == words["question"]
    assert page.inner_text("#confirm-action") == words["button"]
    with page.expect_navigation():
        page.click("#confirm-action")

    page.wait_for_selector("#folder-transfer[data-state=completed]")
    assert words["state"] in page.inner_text("#folder-transfer-state")
    assert page.inner_text("#folder-transfer-progress") == words["progress"]
    for path in ("/docs-copy/renamed.txt", "/docs-copy/deeper/c.txt", "/docs/renamed.txt"):
        assert docs.head(path).type == "file"
