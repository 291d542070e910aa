"""In a real browser, with STORAGE_BROWSER_UPLOAD_ROUTE=direct (the default): dropped files go
from the page straight to the storage service (the sandbox) with requests the back-office
signed: a small one by the FORM API, a large one in parts, several at once. No byte of the file
reaches a web node. An interrupted upload is taken up again after a reload with only the
missing parts; a lost connection retries, pauses and resumes; an expired signature is renewed
by the page on its own; a part refused by the provider shows the provider's reason."""

from __future__ import annotations

import time

import pytest

from storage.models import UploadTask
from storage.services.direct_uploads import MIB
from tests.storage.conftest import md5_of, pseudo_random_bytes
from tests.storage.test_storage_browser_drag_drop import drop_files

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"done": "done", "retrying": "connection lost, retrying (attempt 1)",
           "paused": "paused", "lost": "The connection to the storage service was lost.",
           "again": "Drop the same file again to continue.", "refused": "The provider refused"},
    "zh-hans": {"done": "已完成", "retrying": "连接中断，正在重试（第 1 次）", "paused": "已暂停",
                "lost": "与存储服务的连接已断开。", "again": "请再次拖入同一文件以继续上传。",
                "refused": "服务商拒绝"},
}


class ProviderTraffic:
    """The page's requests to the storage service and to the back-office's part endpoint."""

    def __init__(self, page, storage_url: str) -> None:
        self.storage_url = storage_url
        self.parts: list[str] = []
        self.initiates = 0
        self.through_web_node = 0
        self.open = 0
        self.most_open = 0
        page.on("request", self.started)
        page.on("requestfinished", self.ended)
        page.on("requestfailed", self.ended)

    def is_part(self, request) -> bool:
        return request.url.startswith(self.storage_url) and request.method == "PUT" and \
            request.headers.get("x-svc-multi-stage") == "upload"

    def started(self, request) -> None:
        if "/parts/" in request.url:
            self.through_web_node += 1
        if request.url.startswith(self.storage_url) and \
                request.headers.get("x-svc-multi-stage") == "initiate":
            self.initiates += 1
        if self.is_part(request):
            self.parts.append(request.headers["x-svc-part-id"])
            self.open += 1
            self.most_open = max(self.most_open, self.open)

    def ended(self, request) -> None:
        if self.is_part(request):
            self.open -= 1


@pytest.fixture
def direct_page(provider, media_root, settings, sandbox_storage, staff_login, page, live_server):
    settings.STORAGE_BROWSER_UPLOAD_ROUTE = "direct"
    settings.STORAGE_RESUMABLE_THRESHOLD = MIB
    settings.STORAGE_DIRECT_PART_SIZE = MIB
    settings.STORAGE_UPLOAD_PARTS_IN_FLIGHT = 3
    sandbox_storage.create_folder("/inbox")
    staff_login("content", groups=("Content managers",))

    def open_page(language: str = "en"):
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "url": live_server.url}])
        page.goto(f"{live_server.url}/storage/?path=/inbox")
        return page

    return open_page


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_dropped_files_go_straight_to_the_storage_service_parts_at_once(
        direct_page, provider, sandbox, sandbox_storage, language):
    page = direct_page(language)
    traffic = ProviderTraffic(page, provider.info["storage_url"])
    sandbox.add_fault(service="storage", path="/inbox/big.bin", method="PUT", action="delay",
                      delay_ms=400)
    big = pseudo_random_bytes(4 * MIB + 321)
    drop_files(page, ("big.bin", big), ("note.txt", b"a small note"))
    item = page.locator(".upload-item", has_text="/inbox/big.bin")
    page.wait_for_function("(bar) => bar.value > 0 && bar.value < 100",
                           arg=item.locator('[data-leg="overall"] progress').element_handle(),
                           timeout=60_000)
    assert WORDS[language]["again"] not in item.inner_text()  # this page is sending it
    page.wait_for_function(
        """() => document.querySelectorAll('.upload-item[data-state="done"]').length === 2""",
        timeout=60_000)
    assert WORDS[language]["done"] in item.inner_text()
    assert "100%" in item.locator('[data-leg="overall"]').inner_text()
    assert sandbox_storage.head("/inbox/big.bin").md5 == md5_of(big)
    assert sandbox_storage.head("/inbox/note.txt").size == 12
    assert sorted(traffic.parts, key=int) == ["0", "1", "2", "3", "4"]
    assert traffic.most_open >= 2  # parts in flight at once
    assert traffic.through_web_node == 0
    assert {task.state for task in UploadTask.objects.all()} == {"done"}
    page.wait_for_selector('#listing tr[data-name="big.bin"]')


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_interrupted_upload_is_resumed_after_a_reload_with_only_the_missing_parts(
        direct_page, provider, sandbox_storage, live_server, language):
    page = direct_page(language)
    data = pseudo_random_bytes(5 * MIB + 10)
    # Part 4 never gets through; the others arrive and are reported; then the page is left.
    page.route(f"{provider.info['storage_url']}/**", lambda route: route.abort()
               if route.request.headers.get("x-svc-part-id") == "4" else route.continue_())
    drop_files(page, ("resume.bin", data))
    page.wait_for_selector('.upload-item[data-state="retrying"]', timeout=30_000)
    assert WORDS[language]["retrying"] in page.locator(".upload-item").first.inner_text()
    task = wait_for(lambda: UploadTask.objects.filter(parts_done=[0, 1, 2, 3, 5]).first())
    page.goto("about:blank")
    page.unroute(f"{provider.info['storage_url']}/**")
    page = direct_page(language)
    pending = page.locator(".upload-item", has_text="/inbox/resume.bin")
    assert WORDS[language]["again"] in pending.inner_text()
    traffic = ProviderTraffic(page, provider.info["storage_url"])
    drop_files(page, ("resume.bin", data))
    page.wait_for_selector('.upload-item[data-state="done"]', timeout=60_000)
    assert traffic.parts == ["4"] and traffic.initiates == 0
    assert UploadTask.objects.get().pk == task.pk
    assert sandbox_storage.head("/inbox/resume.bin").md5 == md5_of(data)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_lost_connection_to_the_provider_retries_pauses_and_resumes(
        direct_page, provider, settings, sandbox_storage, language):
    settings.STORAGE_UPLOAD_PAUSE_S = 3
    page = direct_page(language)
    words = WORDS[language]
    storage = f"{provider.info['storage_url']}/**"
    page.route(storage, lambda route: route.abort("connectionreset")
               if route.request.headers.get("x-svc-multi-stage") == "upload"
               else route.continue_())
    data = pseudo_random_bytes(2 * MIB + 100)
    drop_files(page, ("stalled.bin", data))
    item = page.locator(".upload-item").first
    page.wait_for_selector('.upload-item[data-state="retrying"]', timeout=30_000)
    assert words["retrying"] in item.inner_text()
    page.wait_for_selector('.upload-item[data-state="paused"]', timeout=30_000)
    assert item.locator("[data-state-label]").inner_text() == words["paused"]
    assert words["lost"] in item.locator("[data-error]").inner_text()
    page.unroute(storage)
    item.locator("[data-retry]").click()
    page.wait_for_selector('.upload-item[data-state="done"]', timeout=60_000)
    assert sandbox_storage.head("/inbox/stalled.bin").md5 == md5_of(data)


def test_an_expired_signature_or_policy_is_renewed_by_the_page_on_its_own(
        direct_page, provider, settings, sandbox_storage):
    settings.STORAGE_DIRECT_SIGNATURE_LIFETIME_S = 5
    page = direct_page()
    traffic = ProviderTraffic(page, provider.info["storage_url"])
    held: set[str] = set()
    form_posts: list[str] = []

    def hold_the_first_requests(route):
        # The first initiate and the first FORM post wait past their signature's life before
        # they leave the browser.
        kind = route.request.headers.get("x-svc-multi-stage") or route.request.method
        if kind == "POST":
            form_posts.append(route.request.url)
        if kind in ("initiate", "POST") and kind not in held:
            held.add(kind)
            time.sleep(7)
        route.continue_()

    page.route(f"{provider.info['storage_url']}/**", hold_the_first_requests)
    data = pseudo_random_bytes(2 * MIB + 5)
    drop_files(page, ("late.bin", data), ("late.txt", b"a late note"))
    page.wait_for_function(
        """() => document.querySelectorAll('.upload-item[data-state="done"]').length === 2""",
        timeout=90_000)
    # Each refused (40100002, 40300006), signed again and sent again (a held request can hold
    # the other's renewal past its life too: Playwright runs one route handler at a time).
    assert traffic.initiates >= 2 and len(form_posts) >= 2
    assert sandbox_storage.head("/inbox/late.bin").md5 == md5_of(data)
    assert sandbox_storage.head("/inbox/late.txt").size == 11


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_part_of_the_wrong_size_shows_the_providers_reason(
        direct_page, provider, sandbox_storage, language):
    page = direct_page(language)

    def other_part_size(route):
        # The provider is told 2 MiB parts; the page sends 1 MiB ones, which it refuses.
        headers = dict(route.request.headers)
        if headers.get("x-svc-multi-stage") == "initiate":
            headers["x-svc-multi-part-size"] = str(2 * MIB)
        route.continue_(headers=headers)

    page.route(f"{provider.info['storage_url']}/**", other_part_size)
    drop_files(page, ("sized.bin", pseudo_random_bytes(4 * MIB)))
    page.wait_for_selector('.upload-item[data-state="failed"]', timeout=60_000)
    text = page.locator(".upload-item").first.inner_text()
    assert WORDS[language]["refused"] in text and "40001027" in text
    task = UploadTask.objects.get()
    assert task.state == "failed" and "40001027" in task.error


def wait_for(find, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = find()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError("not reached in time")


def test_an_upload_the_provider_refused_is_resumed_with_one_click(
        direct_page, provider, sandbox_storage):
    page = direct_page()
    provider.add_fault(service="storage", path="/inbox/refused.bin", method="PUT",
                       action="status", status=400,
                       body={"code": 40000000, "msg": "refused for the test", "id": "t"},
                       times=1)
    data = pseudo_random_bytes(3 * MIB + 10)
    drop_files(page, ("refused.bin", data))
    page.wait_for_selector('.upload-item[data-state="failed"]', timeout=60_000)
    item = page.locator(".upload-item").first
    assert "refused for the test" in item.inner_text()
    assert "refused for the test" in UploadTask.objects.get().error
    item.locator("[data-resume]").click()
    page.wait_for_selector('.upload-item[data-state="done"]', timeout=60_000)
    assert sandbox_storage.head("/inbox/refused.bin").md5 == md5_of(data)
