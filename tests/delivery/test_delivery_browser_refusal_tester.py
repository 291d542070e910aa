"""In a real browser, in English and in Chinese: the "why was I refused" page marks a bad
client address at its field, and for a request the published User-Agent whitelist refuses it
names that check, the reason and the edge's code, with the later checks not reached."""

from __future__ import annotations

from typing import Any

import pytest

from console.models import Domain
from tests.delivery.conftest import Edge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "en": {"bad_ip": "An IPv4 or IPv6 address, e.g. 203.0.113.7.",
           "stop": "Refused by the User-Agent whitelist (403). The User-Agent matches no entry "
                   "of the whitelist. Error code 40310012.",
           "not_reached": "not reached"},
    "zh-hans": {"bad_ip": "IPv4 或 IPv6 地址，例如 203.0.113.7。",
                "stop": "被User-Agent 白名单拒绝（403）。 User-Agent 与白名单中的任何条目都不匹配。"
                        " 错误码 40310012。",
                "not_reached": "未执行到"},
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_page_names_the_check_that_refuses_a_request(
        page: Any, live_server: Any, staff_login: Any, edge: Edge, domain: Domain,
        publish: Any, language: str) -> None:
    publish(ua_whitelist="ShopApp", referer_mode="allow", referer_domains="shop.example.com")
    staff_login("auditor", groups=("Auditors",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    texts = TEXTS[language]
    page.goto(f"{live_server.url}/delivery/why/")
    page.fill("#id_url", "/photos/a.jpg")
    page.fill("#id_client_ip", "192.0.2.300")
    page.click("#refusal-form button[type=submit]")
    assert page.inner_text('[data-field="client_ip"] .errorlist') == texts["bad_ip"]
    assert page.locator("#refusal-result").count() == 0
    page.fill("#id_client_ip", "192.0.2.30")
    page.fill("#id_user_agent", "Wget/1.21")
    page.fill("#id_referer", "https://evil.example.org/")
    page.click("#refusal-form button[type=submit]")
    assert " ".join(page.inner_text("#refusal-stop").split()) == " ".join(texts["stop"].split())
    referer_row = page.locator('#refusal-checks tr[data-check="referer"]')
    assert referer_row.get_attribute("data-outcome") == "not_reached"
    assert texts["not_reached"] in referer_row.inner_text()
