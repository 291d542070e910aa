"""In a real browser, in English and in Chinese: Publish and Purge open the confirmation page,
which names the rule set and its rules, or the URLs and their count, before anything reaches
the edge; "Go back" sends nothing, the confirm button sends it."""

from __future__ import annotations

from typing import Any

import pytest

from console.services import default_domain
from delivery.models import PublishedConfig, PurgeRequest, Rule, RuleSet
from tests.delivery.conftest import Edge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PUBLISH = {
    "en": ("Publish the delivery settings of 127.0.0.1 and the rule set “site” (1 rule) to the "
           "edge?",
           "Publish now"),
    "zh-hans": ("将 127.0.0.1 的分发设置和规则集“site”（1 条规则）发布到边缘节点？", "立即发布"),
}
PURGE = {"en": "Refresh 2 URLs at the edge?", "zh-hans": "在边缘节点刷新 2 个 URL？"}


def sign_in(page: Any, live_server: Any, staff_login: Any, language: str) -> None:
    staff_login("content", groups=("Content managers",))
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": live_server.url}])


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_publishing_is_confirmed_naming_the_rule_set(page: Any, live_server: Any,
                                                     staff_login: Any, edge: Edge,
                                                     language: str) -> None:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="site")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="^/a$", rule="/b", state="enabled")
    sign_in(page, live_server, staff_login, language)
    question, button = PUBLISH[language]
    page.goto(f"{live_server.url}/delivery/publish/?rule_set={rule_set.pk}")
    page.click("#dl-publish")
    assert page.inner_text("#confirm-question") == question
    assert not PublishedConfig.objects.exists()
    assert page.inner_text("#confirm-action") == button
    page.click("#confirm-action")
    page.wait_for_selector("#dl-publish")
    assert PublishedConfig.objects.get().rule_set == rule_set
    assert edge.config()["rules"][0]["rule"] == "/b"


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_purge_is_confirmed_listing_the_urls(page: Any, live_server: Any, staff_login: Any,
                                               edge: Edge, language: str) -> None:
    sign_in(page, live_server, staff_login, language)
    urls = [f"{edge.base_url}/a.jpg", f"{edge.base_url}/b.jpg"]
    page.goto(f"{live_server.url}/delivery/purge/")
    page.fill("#dl-purge-form textarea", "\n".join(urls))
    page.click("#dl-purge-form button[type=submit]")
    assert page.inner_text("#confirm-question") == PURGE[language]
    assert page.locator("#confirm-items li").all_inner_texts() == urls
    page.click("#confirm-back")
    page.wait_for_selector("#dl-purge-form")
    assert not PurgeRequest.objects.exists()

    page.fill("#dl-purge-form textarea", "\n".join(urls))
    page.click("#dl-purge-form button[type=submit]")
    page.click("#confirm-action")
    page.wait_for_selector("#dl-purge-form")
    assert PurgeRequest.objects.get().url_count == 2  # the lines survived the hidden field
