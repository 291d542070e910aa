"""In a real browser, in English and in Chinese: the rule refresh form puts its errors at the
field (an eleventh pattern, a pattern of another service's domain) and sends nothing; a
corrected form is confirmed, sent, and the console's answer is shown for the pattern."""

from __future__ import annotations

from typing import Any

import pytest

from console.models import Domain, Service, ServiceKind
from delivery import services
from delivery.models import RefreshOperation
from tests.delivery.conftest import Edge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "en": {"too_many": "At most 10 lines a request; send the rest in another.",
           "other": "Line 1: “http://shop.example.com/*” is on a domain of the service "
                    "shop-site, not of this domain's service; choose that domain first.",
           "question": "Refresh every cached file matching 1 pattern?",
           "refused": "refused: invalid domain"},
    "zh-hans": {"too_many": "每次最多 10 行；其余的请另行提交。",
                "other": "第 1 行：“http://shop.example.com/*”属于服务 shop-site 的域名，而不是"
                         "本域名所属的服务；请先选择那个域名。",
                "question": "刷新与这 1 条规则匹配的全部缓存文件？",
                "refused": "被拒绝：invalid domain"},
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_rule_refresh_form_puts_its_errors_at_the_field(
        page: Any, live_server: Any, staff_login: Any, edge: Edge, domain: Domain,
        language: str) -> None:
    shop = Service.objects.create(name="shop-site", kind=ServiceKind.CDN)
    Domain.objects.create(service=shop, name="shop.example.com")
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    texts = TEXTS[language]
    base = services.delivery_base_url(domain)
    page.goto(f"{live_server.url}/delivery/refresh/")
    field = '#dl-refresh-form [data-field="items"]'
    page.fill("#dl-refresh-form textarea", "\n".join(f"{base}/p{n}/*" for n in range(11)))
    page.click("#dl-refresh-form button[type=submit]")
    assert page.inner_text(f"{field} .errorlist") == texts["too_many"]
    page.fill("#dl-refresh-form textarea", "http://shop.example.com/*")
    page.click("#dl-refresh-form button[type=submit]")
    assert page.inner_text(f"{field} .errorlist") == texts["other"]
    assert page.get_attribute(field, "class") == "dl-field dl-invalid"
    assert not RefreshOperation.objects.exists()
    page.fill("#dl-refresh-form textarea", f"{base}/photos/*")
    page.click("#dl-refresh-form button[type=submit]")
    assert page.inner_text("#confirm-question") == texts["question"]
    page.click("#confirm-action")
    page.wait_for_selector("#dl-operations")
    item = page.locator('#dl-operations li[data-item="http://127.0.0.1/photos/*"]')
    assert texts["refused"] in item.inner_text()
    assert RefreshOperation.objects.count() == 1
