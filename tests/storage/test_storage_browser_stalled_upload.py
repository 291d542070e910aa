"""In a real browser: a resumable upload whose connection is lost never sits at the same
percentage: it says "connection lost, retrying (attempt n)" with a Resume button, after the
set time (STORAGE_UPLOAD_PAUSE_S) "paused" with the reason, and Resume finishes it once the
connection is back."""

from __future__ import annotations

import pytest

from storage.models import UploadTask
from storage.resumable import PART_SIZE
from tests.storage.conftest import md5_of, pseudo_random_bytes
from tests.storage.test_storage_browser_drag_drop import drop_files

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              # The direct route's version: test_storage_browser_direct_uploads.
              pytest.mark.usefixtures("through_backoffice")]

WORDS = {
    "en": ("connection lost, retrying (attempt 1)", "paused", "The back-office did not answer.",
           "Resume"),
    "zh-hans": ("连接中断，正在重试（第 1 次）", "已暂停", "后台没有应答。", "继续上传"),
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_lost_connection_retries_then_pauses_with_the_reason_and_resumes(
        provider, media_root, settings, sandbox_storage, staff_login, page, live_server,
        language):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    settings.STORAGE_UPLOAD_PAUSE_S = 4
    sandbox_storage.create_folder("/inbox")
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/storage/?path=/inbox")
    retrying, paused, reason, resume = WORDS[language]

    page.route("**/storage/uploads/*/parts/**", lambda route: route.abort("connectionreset"))
    data = pseudo_random_bytes(PART_SIZE * 2 + 100)
    drop_files(page, ("stalled.bin", data))
    item = page.locator(".upload-item").first
    page.wait_for_selector('.upload-item[data-state="retrying"]', timeout=30_000)
    assert retrying in item.inner_text()
    button = item.locator("[data-retry]")
    assert button.is_visible() and button.inner_text() == resume

    page.wait_for_selector('.upload-item[data-state="paused"]', timeout=30_000)
    assert item.locator("[data-state-label]").inner_text() == paused
    assert reason in item.locator("[data-error]").inner_text()

    page.unroute("**/storage/uploads/*/parts/**")  # the connection is back
    button.click()
    page.wait_for_selector('.upload-item[data-state="done"]', timeout=60_000)
    assert UploadTask.objects.get().state == "done"
    assert sandbox_storage.head("/inbox/stalled.bin").md5 == md5_of(data)
