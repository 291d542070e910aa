"""The publish page says the edge configuration's sections in words (issue 29, walk-through):
what will be sent and the history's changed sections, in English and in Chinese; the exact
configuration (the edge's own keys) is folded under a disclosure, for checking."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from console.services import default_domain
from delivery.models import Rule, RuleSet
from delivery.services.edgeconfig import SECTIONS
from delivery.texts import SECTION_NAMES
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db

WORDS = {
    "en": ("Token authentication", "Rewrite rules", "Show them exactly as the edge receives"),
    "zh-hans": ("令牌防盗链", "重写规则", "显示边缘节点收到的原始配置"),
}


def test_every_section_has_a_name() -> None:
    assert set(SECTION_NAMES) == set(SECTIONS)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_publish_page_names_sections_in_words(edge: Edge, manager_client: Any,
                                                  language: str) -> None:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="site")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="^/a$", rule="/b", state="enabled")
    manager_client.post(reverse("delivery:publish_now"), {"rule_set": rule_set.pk,
                                                          "confirmed": "1"})
    manager_client.cookies["django_language"] = language
    html = manager_client.get(reverse("delivery:publish") + f"?rule_set={rule_set.pk}"
                              ).content.decode()
    token, rewrite, disclosure = WORDS[language]
    sections = re.search(r'id="dl-publish-sections">([^<]*)<', html)
    assert sections is not None and token in sections.group(1)
    assert rewrite in sections.group(1) and "origin_auth" not in sections.group(1)
    changed = re.findall(r'<td class="dl-sections">([^<]*)</td>', html)
    assert changed and rewrite in changed[0] and "rewrite" not in changed[0]
    assert re.search(rf"<details id=\"dl-publish-details\"><summary>{disclosure}", html)
