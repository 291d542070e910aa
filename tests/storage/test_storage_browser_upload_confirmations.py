"""In a real browser, in English and in Chinese: dropping files over stored ones asks in place,
in the confirmation page's look and words, naming and counting the files to be replaced (no
`window.confirm`); "Go back" sends nothing. Discard of an upload asks too: on the confirmation
page from the uploads list, in place while the page holds the dropped file."""

from __future__ import annotations

import io

import pytest

from storage.models import UploadTask
from storage.resumable import PART_SIZE
from tests.storage.conftest import pseudo_random_bytes
from tests.storage.test_storage_browser_drag_drop import drop_files

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDING = {
    "en": {
        "replace": "Replace 2 existing files in /inbox?",
        "replace_button": "Replace 2 files",
        "back": "Go back: do nothing",
        "kept": "Nothing was sent: the existing files were kept.",
        "discard": "Discard the upload of /inbox/refused.bin?",
        "discard_button": "Discard the upload",
    },
    "zh-hans": {
        "replace": "替换 /inbox 中已有的 2 个文件？",
        "replace_button": "替换 2 个文件",
        "back": "返回：不做任何操作",
        "kept": "未发送任何文件：已保留现有文件。",
        "discard": "放弃 /inbox/refused.bin 的上传？",
        "discard_button": "放弃上传",
    },
}


@pytest.fixture
def browser_setup(provider, media_root, settings, sandbox_storage, staff_login,
                  page, live_server):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    sandbox_storage.create_folder("/inbox")
    staff_login("content", groups=("Content managers",))

    def open_in(language: str, path: str = "/storage/?path=/inbox"):
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "url": live_server.url}])
        page.goto(f"{live_server.url}{path}")
        return page

    return open_in


def no_native_dialogs(page) -> list[str]:
    """Every window.confirm/alert the page opens (none is expected): declined and recorded."""
    opened: list[str] = []

    def refuse(dialog) -> None:
        opened.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", refuse)
    return opened


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_replacing_stored_files_is_asked_in_place(browser_setup, sandbox_storage, language):
    words = WORDING[language]
    sandbox_storage.upload("/inbox/a.txt", io.BytesIO(b"old a"))
    sandbox_storage.upload("/inbox/b.txt", io.BytesIO(b"old b"))
    page = browser_setup(language)
    dialogs = no_native_dialogs(page)

    drop_files(page, ("a.txt", b"new a"), ("b.txt", b"new b"), ("c.txt", b"new c"))
    panel = page.locator("#inpage-confirm")
    panel.wait_for()
    assert page.inner_text("#inpage-confirm-question") == words["replace"]
    assert page.locator("#inpage-confirm-items li").all_inner_texts() == [
        "/inbox/a.txt", "/inbox/b.txt"]
    assert page.inner_text("#inpage-confirm-back") == words["back"]
    assert "confirm-card" in (panel.get_attribute("class") or "")
    # The danger colour of the confirmation page's button.
    assert page.eval_on_selector(
        "#inpage-confirm-action", "b => getComputedStyle(b).backgroundColor"
    ) == "rgb(194, 55, 44)"

    page.click("#inpage-confirm-back")
    assert page.locator("#inpage-confirm").count() == 0
    assert page.inner_text("#drop-zone-errors") == words["kept"]
    assert not UploadTask.objects.exists()
    assert sandbox_storage.head("/inbox/a.txt").size == 5

    drop_files(page, ("a.txt", b"new a!"), ("b.txt", b"new b!"), ("c.txt", b"new c"))
    page.wait_for_selector("#inpage-confirm")
    assert page.inner_text("#inpage-confirm-action") == words["replace_button"]
    page.click("#inpage-confirm-action")
    page.wait_for_function(
        """() => document.querySelectorAll('.upload-item[data-state="done"]').length === 3""",
        timeout=60_000)
    assert sandbox_storage.head("/inbox/a.txt").size == 6
    assert sandbox_storage.head("/inbox/c.txt").size == 5
    assert dialogs == []


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_discarding_a_dropped_upload_is_asked_in_place(browser_setup, provider, language):
    words = WORDING[language]
    page = browser_setup(language)
    dialogs = no_native_dialogs(page)
    provider.add_fault(service="storage", path="/inbox/refused.bin", method="PUT",
                       action="status", status=400,
                       body={"code": 40000000, "msg": "refused for the test", "id": "t"},
                       times=1)
    drop_files(page, ("refused.bin", pseudo_random_bytes(PART_SIZE + 10)))
    page.wait_for_selector('.upload-item[data-state="failed"]', timeout=60_000)
    url = page.url

    page.locator(".upload-item [data-cancel]").click()
    page.wait_for_selector("#inpage-confirm")
    assert page.url == url  # the page keeps the file it holds (Resume would need it)
    assert page.inner_text("#inpage-confirm-question") == words["discard"]
    page.click("#inpage-confirm-back")
    assert UploadTask.objects.get().state == "failed"

    page.locator(".upload-item [data-cancel]").click()
    page.wait_for_selector("#inpage-confirm")
    assert page.inner_text("#inpage-confirm-action") == words["discard_button"]
    page.click("#inpage-confirm-action")
    page.wait_for_selector('.upload-item[data-state="cancelled"]')
    assert UploadTask.objects.get().state == "cancelled"
    assert dialogs == []


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_discarding_from_the_uploads_list_asks_on_the_confirmation_page(
        browser_setup, provider, media_root, language):
    from tests.storage.conftest import queue_upload

    words = WORDING[language]
    task = queue_upload(b"x" * 100, "/inbox/refused.bin")
    UploadTask.objects.filter(pk=task.pk).update(state="failed", error="boom")
    page = browser_setup(language, "/storage/uploads/?state=failed")

    page.locator(".upload-item [data-cancel]").click()
    page.wait_for_selector("#confirmation")
    assert page.inner_text("#confirm-question") == words["discard"]
    page.click("#confirm-back")
    page.wait_for_selector("#upload-list")
    assert page.url.endswith("/storage/uploads/?state=failed")
    assert UploadTask.objects.get().state == "failed"

    page.locator(".upload-item [data-cancel]").click()
    page.click("#confirm-action")
    page.wait_for_selector(".messages")
    assert UploadTask.objects.get().state == "cancelled"


def test_discard_on_a_page_that_is_sending_asks_in_place_and_the_send_goes_on(
        browser_setup, provider, media_root, sandbox, sandbox_storage):
    from tests.storage.conftest import queue_upload

    old = queue_upload(b"x" * 100, "/inbox/old.bin")
    UploadTask.objects.filter(pk=old.pk).update(state="failed", error="boom")
    page = browser_setup("en")
    # A slow drop keeps the page sending while Discard is asked.
    sandbox.add_fault(service="storage", path="/inbox/slow.bin", method="PUT",
                      action="delay", delay_ms=1500)
    drop_files(page, ("slow.bin", b"slow"))
    page.wait_for_selector('.upload-item[data-state="uploading"]')
    url = page.url

    page.locator(f'.upload-item[data-upload-id="{old.pk}"] [data-cancel]').click()
    page.wait_for_selector("#inpage-confirm")
    assert page.url == url
    assert page.inner_text("#inpage-confirm-question") == "Discard the upload of /inbox/old.bin?"
    page.click("#inpage-confirm-action")
    page.wait_for_selector(f'.upload-item[data-upload-id="{old.pk}"][data-state="cancelled"]')
    page.wait_for_selector('.upload-item[data-state="done"]', timeout=60_000)
    assert UploadTask.objects.get(pk=old.pk).state == "cancelled"
    assert sandbox_storage.head("/inbox/slow.bin").size == 4
