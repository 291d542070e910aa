"""The real file browser in chromium, with STORAGE_BROWSER_UPLOAD_ROUTE=through-backoffice (the
direct route is tested in test_storage_browser_direct_uploads): a dropped file goes to storage
in 1 MiB parts, each forwarded by the web request that carries it, with a bar for the part and
one for the whole file, and shows up in the folder; a failed upload is resumed with one click;
a reloaded page takes an unfinished upload up again at the provider's next part when the file
is dropped again."""

from __future__ import annotations

import base64
import os

import pytest

from storage.models import UploadTask
from storage.resumable import PART_SIZE
from tests.storage.conftest import md5_of, pseudo_random_bytes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("through_backoffice")]

DROP = """(files) => {
  const transfer = new DataTransfer();
  for (const [name, encoded] of files) {
    const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], name, {type: "application/octet-stream"}));
  }
  const zone = document.getElementById("drop-zone");
  zone.dispatchEvent(new DragEvent("dragenter", {dataTransfer: transfer, bubbles: true}));
  zone.dispatchEvent(new DragEvent("drop", {dataTransfer: transfer, bubbles: true,
                                            cancelable: true}));
}"""


def drop_files(page, *files: tuple[str, bytes]) -> None:
    """Drop files on the drop zone as a user's drag and drop does (one DataTransfer)."""
    page.evaluate(DROP, [[name, base64.b64encode(data).decode()] for name, data in files])


@pytest.fixture
def browser_setup(provider, media_root, settings, sandbox_storage, staff_login,
                  page, live_server):
    settings.STORAGE_RESUMABLE_THRESHOLD = PART_SIZE
    sandbox_storage.create_folder("/inbox")
    staff_login("content", groups=("Content managers",))
    page.goto(f"{live_server.url}/storage/?path=/inbox")
    return page


def test_dropped_files_are_uploaded_with_progress_and_appear_in_the_folder(browser_setup,
                                                                           sandbox_storage,
                                                                           sandbox, media_root):
    page = browser_setup
    assert page.locator("#listing").inner_text().count("This folder is empty.") == 1
    data = pseudo_random_bytes(PART_SIZE * 3 + 4567)
    # Slow parts, so the page's polling sees the transfer to storage under way.
    sandbox.add_fault(service="storage", path="/inbox/dropped.bin", method="PUT",
                      action="delay", delay_ms=600)
    drop_files(page, ("dropped.bin", data), ("note.txt", b"a small note"))

    item = page.locator(".upload-item", has_text="/inbox/dropped.bin")
    item.wait_for()
    assert "in parts of 1.0 MiB" in item.inner_text()
    overall_bar = item.locator('[data-leg="overall"] progress')
    page.wait_for_function("(bar) => bar.value > 0 && bar.value < 100",
                           arg=overall_bar.element_handle(), timeout=60_000)
    page.wait_for_function(
        """() => document.querySelectorAll('.upload-item[data-state="done"]').length === 2""",
        timeout=60_000)
    assert "in one request" in page.locator(".upload-item", has_text="note.txt").inner_text()
    part_bar = item.locator('[data-leg="part"] progress')
    assert part_bar.get_attribute("value") == "100"
    assert overall_bar.get_attribute("value") == "100"
    assert "100% · 3.0 MiB / 3.0 MiB" in item.locator('[data-leg="overall"]').inner_text()
    assert not any(media_root.rglob("*"))  # nothing was staged on the web node

    page.wait_for_selector('#listing tr[data-name="dropped.bin"]')
    page.wait_for_selector('#listing tr[data-name="note.txt"]')
    assert sandbox_storage.head("/inbox/dropped.bin").md5 == md5_of(data)
    assert sandbox_storage.head("/inbox/note.txt").size == 12
    if os.environ.get("STORAGE_SCREENSHOTS"):
        page.screenshot(path=os.environ["STORAGE_SCREENSHOTS"] + "/browser.png", full_page=True)


def test_a_failed_upload_is_resumed_with_one_click(browser_setup, provider, sandbox_storage):
    page = browser_setup
    provider.add_fault(service="storage", path="/inbox/refused.bin", method="PUT",
                       action="status", status=400,
                       body={"code": 40000000, "msg": "refused for the test", "id": "t"},
                       times=1)
    data = pseudo_random_bytes(PART_SIZE + 10)
    drop_files(page, ("refused.bin", data))
    page.wait_for_selector('.upload-item[data-state="failed"]', timeout=60_000)
    item = page.locator(".upload-item").first
    assert "refused for the test" in item.inner_text()
    item.locator("[data-resume]").click()
    page.wait_for_selector('.upload-item[data-state="done"]', timeout=60_000)
    assert UploadTask.objects.get().state == "done"
    assert sandbox_storage.head("/inbox/refused.bin").md5 == md5_of(data)
    page.wait_for_selector('#listing tr[data-name="refused.bin"]')


def test_a_reloaded_page_resumes_at_the_providers_next_part(browser_setup, sandbox_storage,
                                                            live_server):
    page = browser_setup
    data = pseudo_random_bytes(PART_SIZE * 3 + 10)
    # The third part never gets through and the page is reloaded: the file in the old page
    # is gone, two parts are at the provider.
    page.route("**/parts/2/", lambda route: route.abort())
    drop_files(page, ("reload.bin", data))
    page.wait_for_function("() => document.querySelector('.upload-item[data-upload-id]')")
    task = _wait_for_part(2)
    # Leave the page before lifting the block: the old page retries a failed part, and a retry
    # that slips through between the two steps would finish the upload before the reload.
    page.goto("about:blank")
    page.unroute("**/parts/2/")
    page.goto(f"{live_server.url}/storage/?path=/inbox")
    pending = page.locator(".upload-item", has_text="/inbox/reload.bin")
    assert "Drop the same file again to continue." in pending.inner_text()
    drop_files(page, ("reload.bin", data))
    page.wait_for_selector('.upload-item[data-state="done"]', timeout=60_000)
    assert UploadTask.objects.count() == 1 and UploadTask.objects.get().pk == task.pk
    assert sandbox_storage.head("/inbox/reload.bin").md5 == md5_of(data)


def _wait_for_part(part_id: int) -> UploadTask:
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        task = UploadTask.objects.first()
        if task is not None and task.next_part == part_id:
            return task
        time.sleep(0.2)
    raise AssertionError(f"the upload never reached part {part_id}")


def test_bad_options_are_shown_beside_their_field_and_nothing_is_sent(browser_setup):
    page = browser_setup
    page.click("#upload-options-box summary")
    page.fill("#id_quality", "150")
    drop_files(page, ("photo.png", b"png?"))
    error = page.locator('[data-errors-for="quality"] li')
    error.wait_for()
    assert error.inner_text() == "Quality must be a whole number from 1 to 100."
    assert page.locator(".upload-item").count() == 0
    assert not UploadTask.objects.exists()
