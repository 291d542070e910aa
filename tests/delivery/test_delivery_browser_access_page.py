"""In a real browser, in English and in Chinese: the Access page saves a region list, shows
what the auth URL answered to "try it", and switching external links off asks first, naming
the domain; "Go back" keeps it on, the confirm button switches it off."""

from __future__ import annotations

from typing import Any

import pytest

from console.services import default_domain
from delivery.models import DeliverySettings
from tests.auth_server import AuthServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"saved": "Saved. Publish to put it on the edge.",
           "question": "Switch external links off for cdn.example.com?",
           "button": "Switch off external links for cdn.example.com",
           "verdict": "Answered 403 in", "refuse": "the edge would refuse the request (403)",
           "bad_line": "Line 2: “ZZ” is not an ISO 3166 country/region code"},
    "zh-hans": {"saved": "已保存。发布后才会下发到边缘节点。",
                "question": "关闭 cdn.example.com 的外链访问？",
                "button": "关闭 cdn.example.com 的外链访问",
                "verdict": "应答 403", "refuse": "边缘节点会拒绝该请求（403）",
                "bad_line": "第 2 行：“ZZ”不是 ISO 3166 国家/地区代码"},
}


@pytest.fixture(autouse=True)
def configured(settings: Any, domain: Any) -> None:
    settings.PROVIDER["delivery"] = {"delivery_url": "http://cdn.example.com",
                                     "purge_url": "http://p.example.com",
                                     "token_secret": "abc123"}


def open_page(page: Any, live_server: Any, staff_login: Any, language: str) -> None:
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])
    page.goto(f"{live_server.url}/delivery/access/")


def settings_row() -> DeliverySettings:
    return DeliverySettings.for_domain(default_domain())


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_region_list_is_saved_and_a_bad_code_named_by_its_line(
        page: Any, live_server: Any, staff_login: Any, language: str) -> None:
    words = WORDS[language]
    open_page(page, live_server, staff_login, language)
    page.select_option("#id_region_mode", "block")
    page.fill("#id_regions", "CN\nZZ")
    page.click("#dl-save-region")
    errors = page.locator('#dl-region .dl-field[data-field="regions"] .errorlist p')
    assert words["bad_line"] in errors.all_inner_texts()[0]
    assert settings_row().region_mode == "off"
    page.fill("#id_regions", "CN")
    page.select_option("#id_add_regions", ["JP"])
    page.click("#dl-save-region")
    assert words["saved"] in page.inner_text(".messages, body")
    assert page.input_value("#id_regions") == "CN\nJP"
    assert (settings_row().region_mode, settings_row().regions) == ("block", "CN\nJP")


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_try_it_shows_the_auth_urls_answer(page: Any, live_server: Any, staff_login: Any,
                                           language: str) -> None:
    words = WORDS[language]
    open_page(page, live_server, staff_login, language)
    with AuthServer.running(status=403) as auth:
        auth.body = b"denied by shop"
        page.fill("#id_origin_auth_url", auth.url)
        page.fill("#id_try_uri", "/photos/a.jpg")
        page.click("#dl-try-auth")
        page.wait_for_selector("#dl-try-result")
    verdict = page.inner_text("#dl-try-verdict")
    assert words["verdict"] in verdict and words["refuse"] in verdict
    assert page.inner_text("#dl-try-body") == "denied by shop"
    assert auth.received[-1]["x-svc-uri"] == "/photos/a.jpg"
    assert settings_row().origin_auth_url == ""  # trying saves nothing


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_switching_external_links_off_is_confirmed_naming_the_domain(
        page: Any, live_server: Any, staff_login: Any, language: str) -> None:
    words = WORDS[language]
    open_page(page, live_server, staff_login, language)
    page.uncheck("#id_external_links")
    page.click("#dl-save-links")
    assert page.inner_text("#confirm-question") == words["question"]
    assert page.inner_text("#confirm-action") == words["button"]
    page.click("#confirm-back")
    page.wait_for_selector("#dl-links-form")
    assert settings_row().external_links is True

    page.uncheck("#id_external_links")
    page.click("#dl-save-links")
    page.click("#confirm-action")
    page.wait_for_selector("#dl-links-form")
    assert settings_row().external_links is False
    assert "405" in page.inner_text("#dl-links-state")


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_page_fits_a_narrow_screen(page: Any, live_server: Any, staff_login: Any,
                                       language: str) -> None:
    page.set_viewport_size({"width": 768, "height": 900})
    open_page(page, live_server, staff_login, language)
    if language == "en":
        page.screenshot(path="/tmp/access_page_en.png", full_page=True)
    assert page.evaluate(
        "() => document.documentElement.scrollWidth - window.innerWidth") <= 0
