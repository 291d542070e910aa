"""In a real browser, in English and in Chinese: the services list read from the provider, a
storage service added with a wrong then a right operator password, and an origin refused for
its weight, each against the sandbox's console and storage."""

from __future__ import annotations

from typing import Any

import pytest

from console.models import Origin, Service, ServiceKind
from tests.console.conftest import create_service
from tests.sandbox_process import SandboxProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"needs": "needs an operator", "refused": "refused this operator",
           "saved": "Service videos-bucket saved.", "weight": "100"},
    "zh-hans": {"needs": "需要操作员", "refused": "拒绝了该操作员",
                "saved": "服务 videos-bucket 已保存。", "weight": "100"},
}
ORIGIN = [{"address": "http://127.0.0.1:9", "weight": 10, "backup": False}]


def sign_in(page: Any, live_server: Any, staff_login: Any, language: str) -> None:
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_services_list_is_refreshed_from_the_provider(
        page: Any, live_server: Any, staff_login: Any, provider: SandboxProcess,
        language: str) -> None:
    create_service(provider, name="videos-bucket", business_type="file",
                   operators={"video-op": "video-pw-1"}, domains=["videos.example.com"])
    sign_in(page, live_server, staff_login, language)
    page.goto(f"{live_server.url}/services/")
    page.click("#cs-refresh")
    row = page.locator('tr[data-service="videos-bucket"]')
    row.wait_for()
    assert "videos.example.com" in row.inner_text()
    assert WORDS[language]["needs"] in row.inner_text()
    assert page.locator(f'tr[data-service="{provider.info["storage"]["bucket"]}"]').count() == 1


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_storage_service_is_added_after_a_wrong_then_a_right_password(
        page: Any, live_server: Any, staff_login: Any, provider: SandboxProcess,
        language: str) -> None:
    create_service(provider, name="videos-bucket", business_type="file",
                   operators={"video-op": "video-pw-1"})
    sign_in(page, live_server, staff_login, language)
    page.goto(f"{live_server.url}/services/new/")
    page.fill("#id_name", "videos-bucket")
    page.fill("#id_operator", "video-op")
    page.fill("#id_operator_password", "wrong-password")
    page.click("#cs-save")
    error = page.locator('[data-field="operator_password"] .errorlist')
    error.wait_for()
    assert WORDS[language]["refused"] in error.inner_text()
    assert page.input_value("#id_operator_password") == ""  # never sent back
    assert not Service.objects.filter(name="videos-bucket").exists()
    page.fill("#id_operator_password", "video-pw-1")
    page.click("#cs-save")
    page.wait_for_selector("#cs-service-name")
    assert WORDS[language]["saved"] in page.inner_text(".messages")
    assert Service.objects.get(name="videos-bucket").operator_password == "video-pw-1"


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_origin_with_a_bad_weight_is_refused_at_the_field(
        page: Any, live_server: Any, staff_login: Any, provider: SandboxProcess,
        language: str) -> None:
    create_service(provider, name="shop-site", business_type="cdn", origins=ORIGIN)
    service = Service.objects.create(name="shop-site", kind=ServiceKind.CDN)
    sign_in(page, live_server, staff_login, language)
    page.goto(f"{live_server.url}/services/{service.pk}/")
    page.fill("#id_address", "http://origin.example.com:8080")
    page.fill("#id_weight", "150")
    page.click("#cs-origin-add")
    error = page.locator('[data-field="weight"] .errorlist')
    error.wait_for()
    assert WORDS[language]["weight"] in error.inner_text()
    assert not Origin.objects.exists()
    page.fill("#id_weight", "60")
    page.click("#cs-origin-add")
    page.locator('tr[data-origin="http://origin.example.com:8080"]').wait_for()
    assert Origin.objects.get().weight == 60
