"""In a real browser, in English and in Chinese: the upload options offer theme-colour
extraction, and the colours the provider found are shown with the finished upload, painted
under the page's Content-Security-Policy."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from storage.models import UploadTask
from tests.storage.test_storage_browser_drag_drop import drop_files

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def png() -> bytes:
    buffer = io.BytesIO()
    image = Image.new("RGB", (40, 20), (200, 30, 30))
    image.paste((20, 40, 220), (0, 0, 10, 20))
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize(("language", "label", "caption"), [
    ("en", "Extract theme colours", "Theme colours:"),
    ("zh-hans", "提取主题色", "主题色："),
])
def test_theme_colours_are_shown_after_the_upload(provider, media_root, sandbox_storage,
                                                   staff_login, page, live_server, language,
                                                   label, caption):
    sandbox_storage.create_folder("/inbox")
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/storage/?path=/inbox")
    page.click("#upload-options-box summary")
    page.get_by_label(label).check()
    page.fill("#id_extract_count", "2")
    drop_files(page, ("colours.png", png()))
    box = page.locator(".upload-item [data-theme-colours]")
    box.wait_for(state="visible", timeout=20_000)
    assert caption in box.inner_text()
    assert box.locator("code").all_inner_texts() == ["0xc81e1e", "0x1428dc"]
    painted = box.locator(".swatch").first.evaluate(
        "node => getComputedStyle(node).backgroundColor")
    assert painted == "rgb(200, 30, 30)"
    assert UploadTask.objects.get().result["colours"][0]["css"] == "#c81e1e"
