"""Who may see and who may act: Content managers do everything, Auditors read every page and
change nothing, staff of other services see nothing of delivery."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from console.services import default_domain
from delivery.models import DeliverySettings, PublishedConfig, PurgeRequest, Rule, RuleSet

pytestmark = pytest.mark.django_db

PAGES = ["delivery:index", "delivery:links", "delivery:images", "delivery:ruleset_list",
         "delivery:settings", "delivery:refusal_tester", "delivery:publish", "delivery:purge"]


@pytest.fixture
def rule_set(db: Any) -> RuleSet:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="site")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="^/a$", rule="/b")
    return rule_set


@pytest.mark.parametrize("name", PAGES)
def test_managers_and_auditors_see_every_page(name: str, client: Any, manager: Any,
                                              auditor: Any) -> None:
    for user in (manager, auditor):
        client.force_login(user)
        assert client.get(reverse(name)).status_code == 200


def test_the_rule_set_editor_is_read_only_for_auditors(auditor_client: Any,
                                                        rule_set: RuleSet) -> None:
    page = auditor_client.get(reverse("delivery:ruleset_edit", args=[rule_set.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="dl-read-only"' in html
    assert 'id="dl-save"' not in html
    assert "disabled" in html


@pytest.mark.parametrize("name", PAGES)
def test_staff_of_other_services_see_nothing(name: str, client: Any,
                                             make_user: Any) -> None:
    client.force_login(make_user("sms", "SMS operators"))
    assert client.get(reverse(name)).status_code == 403


def test_auditors_cannot_change_anything(auditor_client: Any, rule_set: RuleSet,
                                         settings: Any) -> None:
    attempts = [
        (reverse("delivery:ruleset_new"), {"name": "x"}),
        (reverse("delivery:ruleset_edit", args=[rule_set.pk]), {"name": "renamed"}),
        (reverse("delivery:ruleset_delete", args=[rule_set.pk]), {}),
        (reverse("delivery:settings"), {"separator": "-"}),
        (reverse("delivery:publish_now"), {"rule_set": rule_set.pk}),
        (reverse("delivery:purge"), {"urls": "http://cdn.example.com/a"}),
        (reverse("delivery:links"), {"kind": "signed", "signed-path": "/a.jpg"}),
        (reverse("delivery:links"), {"kind": "secret", "secret-path": "/a.jpg",
                                     "secret-secret": "abc"}),
    ]
    for url, data in attempts:
        assert auditor_client.post(url, data).status_code == 403, url
    assert RuleSet.objects.get().name == "site"
    assert DeliverySettings.for_domain(default_domain()).separator == "!"
    assert not PurgeRequest.objects.exists()
    assert not PublishedConfig.objects.exists()


def test_auditors_may_check_and_test_rules(auditor_client: Any) -> None:
    lint = auditor_client.post(reverse("delivery:lint"), {"rule": "/x", "pattern": ""},
                               content_type="application/json")
    assert lint.status_code == 200
    test = auditor_client.post(reverse("delivery:test"), {
        "rules": [{"pattern": "", "rule": "/x", "state": "enabled"}],
        "request": {"url": "/a"}}, content_type="application/json")
    assert test.status_code == 200
    assert test.json()["outcome"]["url"] == "/x"


def test_auditors_do_not_see_the_signing_builders(auditor_client: Any) -> None:
    html = auditor_client.get(reverse("delivery:links")).content.decode()
    assert 'id="dl-signed"' not in html
    assert 'id="dl-secret"' not in html
    assert 'id="dl-download"' in html
    assert 'name="download-sign"' not in html


def test_pages_render_in_simplified_chinese(manager_client: Any, rule_set: RuleSet) -> None:
    expected = {
        reverse("delivery:links"): "签名链接",
        reverse("delivery:images"): "边缘节点预览",
        reverse("delivery:ruleset_edit", args=[rule_set.pk]): "运行测试器",
        reverse("delivery:settings"): "令牌防盗链",
        reverse("delivery:purge"): "缓存刷新",
    }
    for url, text in expected.items():
        html = manager_client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
        assert text in html, url
