"""In a real browser, in English and in Chinese: two buckets used side by side in the file
browser. The page says which storage service it shows; the switcher opens the other one; a
file dropped into one bucket is listed there and stored at the provider in that bucket only,
and the choice is remembered for the next visit."""

from __future__ import annotations

from typing import Any

import pytest

from console.models import Choice, Service, ServiceKind
from console.services import default_service
from storage.client import NotFound, StorageClient
from tests.console.conftest import create_service
from tests.sandbox_process import SandboxProcess
from tests.storage.test_storage_browser_drag_drop import drop_files

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LABEL = {"en": "Storage service", "zh-hans": "云存储服务"}
VIDEOS, OPERATOR, PASSWORD = "videos-bucket", "videos-op", "videos-password-1"


@pytest.fixture
def videos(provider: SandboxProcess, media_root: Any) -> Service:
    """A second storage service, as a person makes it in the provider's console, recorded."""
    create_service(provider, name=VIDEOS, business_type="file",
                   operators={OPERATOR: PASSWORD}, domains=[])
    return Service.objects.create(name=VIDEOS, kind=ServiceKind.STORAGE, label="Videos",
                                  operator=OPERATOR, operator_password=PASSWORD)


def videos_client(provider: SandboxProcess) -> StorageClient:
    return StorageClient(provider.info["storage_url"], VIDEOS, OPERATOR, PASSWORD)


def listed(page: Any) -> list[str]:
    return page.eval_on_selector_all("#listing tr[data-name]",
                                     "rows => rows.map(row => row.dataset.name)")


def shown(page: Any) -> tuple[str, str]:
    """The switcher's label and the service it shows as chosen."""
    return (page.inner_text("#service-switcher label"),
            page.eval_on_selector("#service-switch", "select => select.value"))


def upload(page: Any, name: str, data: bytes) -> None:
    drop_files(page, (name, data))
    page.wait_for_selector(f'.upload-item[data-state="done"]:has-text("{name}")',
                           timeout=60_000)
    page.wait_for_selector(f'#listing tr[data-name="{name}"]')


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_two_buckets_side_by_side_in_the_file_browser(
        page: Any, live_server: Any, staff_login: Any, provider: SandboxProcess,
        sandbox_storage: StorageClient, videos: Service, language: str) -> None:
    images = default_service()
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/storage/")
    assert shown(page) == (LABEL[language], images.name)
    upload(page, "only-in-images.txt", b"an image bucket's note")

    with page.expect_navigation():
        page.select_option("#service-switch", VIDEOS)
    assert page.url == f"{live_server.url}/storage/?service={VIDEOS}"
    assert shown(page) == (LABEL[language], VIDEOS)
    assert "only-in-images.txt" not in listed(page)
    upload(page, "only-in-videos.txt", b"a video bucket's note")
    assert listed(page) == ["only-in-videos.txt"]

    # At the provider, each file is in its own bucket only.
    assert videos_client(provider).head("/only-in-videos.txt").size == 21
    assert sandbox_storage.head("/only-in-images.txt").size == 22
    with pytest.raises(NotFound):
        videos_client(provider).head("/only-in-images.txt")
    with pytest.raises(NotFound):
        sandbox_storage.head("/only-in-videos.txt")

    # The choice is remembered: the next visit opens the videos bucket.
    assert Choice.objects.get().service == videos
    page.goto(f"{live_server.url}/storage/")
    assert shown(page) == (LABEL[language], VIDEOS)
    with page.expect_navigation():
        page.select_option("#service-switch", images.name)
    assert "only-in-images.txt" in listed(page)
    assert "only-in-videos.txt" not in listed(page)
