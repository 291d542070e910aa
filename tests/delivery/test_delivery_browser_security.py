"""In a real browser, in English and in Chinese: the security page of an own-origin domain
puts a bad rule line's error at the field with its line number and keeps what was stored; the
corrected page is saved, published, and the sandbox edge then refuses a WAF signature and bans
the 3rd request of a window. A storage domain's page says the panel is for own-origin domains
only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from console.models import Domain, Service, ServiceKind
from delivery.models import SecuritySettings
from tests.console.conftest import create_service
from tests.sandbox.origin_support import OriginServer
from tests.sandbox_process import SandboxProcess

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOP = "shop.sandbox.localhost"

TEXTS = {
    "en": {"title": "Security",
           "line": "Line 2: the path pattern must start with /",
           "size": "Ensure this value is less than or equal to 10240.",
           "saved": "Security settings saved. Publish them to put them on the edge.",
           "storage": "apply to domains of a CDN service (own origin) only"},
    "zh-hans": {"title": "安全",
                "line": "第 2 行：路径模式必须以 / 开头",
                "size": "确保该值小于或等于10240。",
                "saved": "安全设置已保存。发布后才会下发到边缘节点。",
                "storage": "只适用于 CDN 服务（自有源站）的域名"},
}


@pytest.fixture
def origin_server() -> Iterator[OriginServer]:
    server = OriginServer.start()
    for path in ("/search", "/login"):
        server.page(path, b"from the origin", content_type="text/plain")
    yield server
    server.stop()


@pytest.fixture
def shop(provider: SandboxProcess, origin_server: OriginServer) -> Domain:
    create_service(provider, name="shop-site", business_type="cdn", domains=[SHOP],
                   origins=[{"address": origin_server.address, "weight": 10, "backup": False}])
    service = Service.objects.create(name="shop-site", kind=ServiceKind.CDN)
    port = urlsplit(provider.info["delivery_url"]).port
    return Domain.objects.create(service=service, name=SHOP, base_url=f"http://{SHOP}:{port}")


def choose(page: Any, live_server: Any, domain: Domain) -> None:
    page.goto(f"{live_server.url}/delivery/security/")
    with page.expect_navigation():
        page.select_option("#switcher-domain", str(domain.pk))


def get(provider: SandboxProcess, path: str, **headers: str) -> requests.Response:
    return requests.get(provider.info["delivery_url"].rstrip("/") + path,
                        headers={"Host": SHOP, **headers}, timeout=30)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_security_page_refuses_a_bad_line_then_saves_and_the_edge_obeys(
        page: Any, live_server: Any, staff_login: Any, provider: SandboxProcess, shop: Domain,
        language: str) -> None:
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    texts = TEXTS[language]
    choose(page, live_server, shop)
    assert page.inner_text("h1") == texts["title"]
    assert page.get_attribute('.dl-subnav a[data-nav="security"]', "aria-current") == "page"
    page.check("#dl-security-form input[name=waf_enabled]")
    page.fill("#dl-security-form input[name=max_body_mb]", "20000")
    page.fill("#dl-security-form textarea[name=ip_limit_rules]",
              "/login* 2 ban 600\nlogin 5 delay 2")
    page.click("#dl-save-security")
    rules = '#dl-security-form [data-field="ip_limit_rules"]'
    assert page.inner_text(f"{rules} .errorlist") == texts["line"]
    size = '#dl-security-form [data-field="max_body_mb"]'
    assert page.inner_text(f"{size} .errorlist") == texts["size"]
    assert SecuritySettings.for_domain(shop).waf_enabled is False
    page.fill("#dl-security-form input[name=max_body_mb]", "512")
    page.fill("#dl-security-form textarea[name=ip_limit_rules]", "/login* 2 ban 600")
    page.click("#dl-save-security")
    assert texts["saved"] in page.inner_text(".messages")
    page.goto(f"{live_server.url}/delivery/publish/")
    page.click("#dl-publish")
    page.click("#confirm-action")
    page.wait_for_selector(".messages")  # the publish page again, with its outcome
    assert get(provider, "/search?q=%3Cscript%3Ealert(1)%3C/script%3E").status_code == 403
    assert get(provider, "/search?q=select%20a%20colour").status_code == 200
    client = {"X-Forwarded-For": "203.0.113.30"}
    assert [get(provider, "/login", **client).status_code for _ in range(3)] == [200, 200, 403]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_storage_domain_page_says_the_panel_is_for_own_origin_domains(
        page: Any, live_server: Any, staff_login: Any, provider: SandboxProcess,
        domain: Domain, language: str) -> None:
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/delivery/security/")
    assert TEXTS[language]["storage"] in page.inner_text("#dl-security-own-origin-only")
    assert page.locator("#dl-security-form").count() == 0
