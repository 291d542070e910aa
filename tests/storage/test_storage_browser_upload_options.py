"""In a real browser, in English and in Chinese: bad upload options stop a dropped file with a
message at the drop zone (each problem with its field's label) as well as beside the field,
and nothing is sent; a drop with nothing to upload, or a check that fails, is said too; the
thumbnail types read as words with the provider's word in small type; the opacity help says
that 0 is opaque."""

from __future__ import annotations

import pytest

from storage.models import UploadTask
from tests.storage.test_storage_browser_drag_drop import drop_files

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMPTY_DROP = """() => {
  const zone = document.getElementById("drop-zone");
  const transfer = new DataTransfer();
  zone.dispatchEvent(new DragEvent("drop", {dataTransfer: transfer, bubbles: true,
                                            cancelable: true}));
}"""


@pytest.fixture
def upload_page(provider, media_root, sandbox_storage, staff_login, page, live_server):
    sandbox_storage.create_folder("/inbox")
    staff_login("content", groups=("Content managers",))

    def open_in(language: str):
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "url": live_server.url}])
        page.goto(f"{live_server.url}/storage/?path=/inbox")
        return page

    return open_in


@pytest.mark.parametrize(("language", "message", "detail"), [
    ("en", "Nothing was uploaded: correct the upload options.",
     "Quality (1-100): Quality must be a whole number from 1 to 100."),
    ("zh-hans", "未上传任何文件：请修正上传选项。",
     "质量（1-100）：质量必须是 1 到 100 之间的整数。"),
])
def test_bad_options_stop_the_drop_with_a_message_at_the_drop_zone(upload_page, language,
                                                                   message, detail):
    page = upload_page(language)
    page.click("#upload-options-box summary")
    page.fill("#id_quality", "150")
    page.click("#upload-options-box summary")  # closed again: the message must not hide in it
    drop_files(page, ("photo.png", b"png?"))
    box = page.locator("#drop-zone-errors")
    box.wait_for(state="visible")
    assert box.locator("[data-drop-message]").inner_text() == message
    assert box.locator("[data-drop-list] li").all_inner_texts() == [detail]
    beside = page.locator('[data-errors-for="quality"] li')
    assert beside.count() == 1
    assert page.locator(".upload-item").count() == 0
    assert not UploadTask.objects.exists()


@pytest.mark.parametrize(("language", "message"), [
    ("en", "Nothing to upload: drop files (a folder cannot be uploaded as a whole)."),
    ("zh-hans", "没有可上传的内容：请拖入文件（不能整体上传文件夹）。"),
])
def test_a_drop_with_no_file_says_so(upload_page, language, message):
    page = upload_page(language)
    page.evaluate(EMPTY_DROP)
    box = page.locator("#drop-zone-errors")
    box.wait_for(state="visible")
    assert box.locator("[data-drop-message]").inner_text() == message


def test_a_check_that_fails_is_said_at_the_drop_zone(upload_page):
    page = upload_page("en")
    page.route("**/storage/uploads/check/**", lambda route: route.fulfill(
        status=502, body="<html>bad gateway</html>", content_type="text/html"))
    drop_files(page, ("note.txt", b"hello"))
    box = page.locator("#drop-zone-errors")
    box.wait_for(state="visible")
    assert box.locator("[data-drop-message]").inner_text() == (
        "The files could not be checked; nothing was sent.")
    assert not UploadTask.objects.exists()


def test_a_good_drop_clears_an_earlier_message_and_uploads(upload_page):
    page = upload_page("en")
    page.click("#upload-options-box summary")
    page.fill("#id_quality", "150")
    drop_files(page, ("note.txt", b"hello"))
    page.locator("#drop-zone-errors").wait_for(state="visible")
    page.fill("#id_quality", "")
    drop_files(page, ("note.txt", b"hello"))
    item = page.locator(".upload-item", has_text="/inbox/note.txt")
    item.wait_for()
    assert page.locator("#drop-zone-errors").is_hidden()
    assert "5 bytes" in item.inner_text()


@pytest.mark.parametrize(("language", "label", "opacity_help"), [
    ("en", "Fit inside (never enlarged)", "0 is opaque (the default), 100 fully transparent."),
    ("zh-hans", "限定范围内缩放（不放大）", "0 为不透明（默认），100 为完全透明。"),
])
def test_thumbnail_types_read_as_words_with_the_api_word_in_small_type(upload_page, language,
                                                                       label, opacity_help):
    page = upload_page(language)
    page.click("#upload-options-box summary")
    option = page.locator('[data-field="thumb_type"] label', has_text="fix_width_or_height")
    assert option.locator("small.api-word").inner_text() == "fix_width_or_height"
    assert label in option.inner_text()
    assert opacity_help in page.locator('[data-field="watermark_opacity"]').inner_text()
