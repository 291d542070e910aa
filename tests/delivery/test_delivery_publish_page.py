"""The publish page: a preview with the secret masked, errors blocking the button, and the
publish itself recorded in the history."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from console.services import default_domain
from delivery.models import PublishedConfig, Rule, RuleSet
from delivery.services.edgeconfig import OWN_ORIGIN_SECTIONS, SECTIONS
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


def test_publishing_from_the_page(edge: Edge, manager_client: Any, manager: Any) -> None:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="site")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="^/a$", rule="/b", state="enabled")
    page = manager_client.get(reverse("delivery:publish") + f"?rule_set={rule_set.pk}")
    preview = page.content.decode()
    assert "********" in preview
    assert edge.secret not in preview
    response = manager_client.post(reverse("delivery:publish_now"), {"rule_set": rule_set.pk,
                                                                      "confirmed": "1"},
                                   follow=True)
    assert "Published to provider console for 127.0.0.1" in response.content.decode()
    record = PublishedConfig.objects.get()
    assert (record.published_by, record.rule_set) == (manager, rule_set)
    assert edge.config()["rules"][0]["rule"] == "/b"


def test_errors_block_publishing(edge: Edge, manager_client: Any) -> None:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="broken")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="", rule="$REDIRECT(/x, 303)")
    page = manager_client.get(reverse("delivery:publish") + f"?rule_set={rule_set.pk}")
    html = page.content.decode()
    assert 'id="dl-publish-errors"' in html
    assert "301 or 302" in html
    response = manager_client.post(reverse("delivery:publish_now"), {"rule_set": rule_set.pk},
                                   follow=True)
    assert "rules 1 have errors" in response.content.decode()
    assert not PublishedConfig.objects.exists()


def test_a_missing_console_url_is_reported(db: Any, manager_client: Any, settings: Any) -> None:
    settings.PROVIDER["delivery"]["token_secret"] = "s"
    settings.PROVIDER["console"] = {"console_url": None, "username": None, "password": None}
    response = manager_client.post(reverse("delivery:publish_now"), {"rule_set": "",
                                                                      "confirmed": "1"},
                                   follow=True)
    assert "Nothing was published: console: set console_url" in response.content.decode()
    assert not PublishedConfig.objects.exists()


def test_the_page_names_the_domain_and_its_address_and_the_history_the_console(
        edge: Edge, manager_client: Any) -> None:
    page = manager_client.get(reverse("delivery:publish")).content.decode()
    assert (f"The edge serves what is published here on 127.0.0.1 ({edge.base_url}), and only "
            "there") in page
    response = manager_client.post(reverse("delivery:publish_now"),
                                   {"rule_set": "", "confirmed": "1"}, follow=True)
    html = response.content.decode()
    assert "Published to provider console for 127.0.0.1." in html
    record = PublishedConfig.objects.get()
    assert record.target == "provider console"
    # The first publication changes every section (a storage domain has no security ones).
    assert record.changed == [name for name in SECTIONS if name not in OWN_ORIGIN_SECTIONS]
