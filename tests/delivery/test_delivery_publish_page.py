"""The publish page: a preview with the secret masked, errors blocking the button, and the
publish itself recorded in the history."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from delivery.models import PublishedConfig, Rule, RuleSet
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


def test_publishing_from_the_page(edge: Edge, manager_client: Any, manager: Any) -> None:
    rule_set = RuleSet.objects.create(name="site")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="^/a$", rule="/b", debug=False)
    page = manager_client.get(reverse("delivery:publish") + f"?rule_set={rule_set.pk}")
    preview = page.content.decode()
    assert "********" in preview
    assert edge.secret not in preview
    response = manager_client.post(reverse("delivery:publish_now"), {"rule_set": rule_set.pk,
                                                                      "confirmed": "1"},
                                   follow=True)
    assert "Published to sandbox edge" in response.content.decode()
    record = PublishedConfig.objects.get()
    assert (record.published_by, record.rule_set) == (manager, rule_set)
    assert edge.config()["rules"][0]["rule"] == "/b"


def test_errors_block_publishing(edge: Edge, manager_client: Any) -> None:
    rule_set = RuleSet.objects.create(name="broken")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="", rule="$REDIRECT(/x, 303)")
    page = manager_client.get(reverse("delivery:publish") + f"?rule_set={rule_set.pk}")
    html = page.content.decode()
    assert 'id="dl-publish-errors"' in html
    assert "301 or 302" in html
    response = manager_client.post(reverse("delivery:publish_now"), {"rule_set": rule_set.pk},
                                   follow=True)
    assert "rules 1 have errors" in response.content.decode()
    assert not PublishedConfig.objects.exists()


def test_a_missing_control_url_is_reported(db: Any, manager_client: Any, settings: Any) -> None:
    settings.PROVIDER["delivery"]["token_secret"] = "s"
    settings.PROVIDER["sandbox_control_url"] = None
    response = manager_client.post(reverse("delivery:publish_now"), {"rule_set": "",
                                                                      "confirmed": "1"},
                                   follow=True)
    assert "SANDBOX_CONTROL_URL" in response.content.decode()
    assert not PublishedConfig.objects.exists()


def test_the_page_and_the_history_name_the_edge_address_not_the_control_port(
        edge: Edge, manager_client: Any) -> None:
    control_url = edge.sandbox.info["control_url"]
    page = manager_client.get(reverse("delivery:publish")).content.decode()
    assert f"The edge at {edge.base_url} serves what is published here." in page
    response = manager_client.post(reverse("delivery:publish_now"),
                                   {"rule_set": "", "confirmed": "1"}, follow=True)
    html = response.content.decode()
    assert f"Published to sandbox edge ({edge.base_url})." in html
    assert PublishedConfig.objects.get().target == f"sandbox edge ({edge.base_url})"
    assert control_url not in html
