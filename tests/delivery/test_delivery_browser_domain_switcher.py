"""In a real browser, in English and in Chinese: a delivery page says which service and domain
it shows; choosing another domain in the switcher reloads the same page on that domain, and
the choice is still there on the next page and the next visit."""

from __future__ import annotations

from typing import Any

import pytest

from console.models import Choice, Domain

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOWN = {
    "en": ("Service {service}, domain {domain}", "Now showing {domain} ({service})."),
    "zh-hans": ("服务 {service}，域名 {domain}", "现在显示 {domain}（{service}）。"),
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_switcher_changes_the_domain_and_remembers_it(
        page: Any, live_server: Any, staff_login: Any, domain: Domain, language: str) -> None:
    shop = Domain.objects.create(service=domain.service, name="shop.example.com",
                                 base_url="http://shop.example.com", token_secret="shop-secret")
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    shown, switched = SHOWN[language]
    service = str(domain.service)
    page.goto(f"{live_server.url}/delivery/settings/")
    assert page.inner_text(".service-switcher-shown") == shown.format(
        service=service, domain=domain.name)
    with page.expect_navigation():
        page.select_option("#switcher-domain", str(shop.pk))
    assert page.url == f"{live_server.url}/delivery/settings/"
    assert page.inner_text(".service-switcher-shown") == shown.format(
        service=service, domain=shop.name)
    assert switched.format(domain=shop.name, service=service) in page.inner_text(".messages")
    assert Choice.objects.get().domain == shop
    page.goto(f"{live_server.url}/delivery/publish/")
    assert page.inner_text(".service-switcher-shown") == shown.format(
        service=service, domain=shop.name)
    assert page.eval_on_selector("#switcher-domain", "select => select.value") == str(shop.pk)
