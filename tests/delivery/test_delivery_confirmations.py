"""Publishing the delivery configuration, purging URLs and deleting a rule set are asked on
the confirmation page first, with what will happen and how many rules or URLs it touches; the
old buttons' plain POST only asks."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.urls import reverse

from backoffice.models import AuditEntry
from console.services import default_domain
from delivery.models import PublishedConfig, PurgeRequest, Rule, RuleSet
from tests.delivery.conftest import Edge

pytestmark = pytest.mark.django_db


def question(html: str) -> str:
    match = re.search(r'<h1 id="confirm-question">([^<]*)</h1>', html)
    assert match, "no confirmation page"
    return unescape(match.group(1))


def hidden_fields(html: str) -> dict[str, str]:
    return {name: unescape(value) for name, value in
            re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html)
            if name != "csrfmiddlewaretoken"}


@pytest.fixture
def rule_set(db: Any) -> RuleSet:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="site")
    for position in (1, 2, 3):
        Rule.objects.create(rule_set=rule_set, position=position, pattern=f"^/{position}$",
                            rule="/b", state="enabled")
    return rule_set


def test_publish_asks_first_naming_the_rule_set_and_its_rules(edge: Edge, manager_client: Any,
                                                              rule_set: RuleSet) -> None:
    response = manager_client.post(reverse("delivery:publish_now"), {"rule_set": rule_set.pk})
    html = response.content.decode()
    assert response.status_code == 200
    assert question(html) == ("Publish the delivery settings of 127.0.0.1 and the rule set "
                              "“site” (3 rules) to the edge?")
    assert "Nothing was published before." in html
    assert not PublishedConfig.objects.exists()
    answer = manager_client.post(reverse("delivery:publish_now"), hidden_fields(html))
    assert answer.status_code == 302
    assert PublishedConfig.objects.get().rule_set == rule_set
    assert AuditEntry.objects.filter(action="publish").count() == 1
    again = manager_client.post(reverse("delivery:publish_now"), {"rule_set": rule_set.pk})
    assert "It replaces the configuration published at " in again.content.decode()


def test_a_rule_set_with_errors_is_refused_before_any_question(edge: Edge,
                                                               manager_client: Any) -> None:
    broken = RuleSet.objects.create(domain=default_domain(), name="broken")
    Rule.objects.create(rule_set=broken, position=1, pattern="", rule="$REDIRECT(/x, 303)")
    response = manager_client.post(reverse("delivery:publish_now"), {"rule_set": broken.pk})
    assert response.status_code == 302
    assert ("Nothing was published: rules 1 have errors."
            in [str(m) for m in response.wsgi_request._messages])


def test_purge_asks_first_listing_the_urls_with_their_count(edge: Edge,
                                                            manager_client: Any) -> None:
    urls = f"{edge.base_url}/a.jpg\n{edge.base_url}/b.jpg"
    response = manager_client.post(reverse("delivery:purge"), {"urls": urls})
    html = response.content.decode()
    assert question(html) == "Refresh 2 URLs at the edge?"
    assert re.findall(r"<li>([^<]+)</li>", html) == [f"{edge.base_url}/a.jpg",
                                                      f"{edge.base_url}/b.jpg"]
    assert not PurgeRequest.objects.exists()
    manager_client.post(reverse("delivery:purge"), hidden_fields(html))
    assert PurgeRequest.objects.get().url_count == 2


def test_bad_purge_lines_are_refused_before_any_question(edge: Edge,
                                                         manager_client: Any) -> None:
    response = manager_client.post(reverse("delivery:purge"), {"urls": "not a url"})
    assert 'id="confirm-question"' not in response.content.decode()
    assert response.context["form"].errors["urls"]


def test_deleting_a_rule_set_asks_first_with_its_rule_count(manager_client: Any,
                                                            rule_set: RuleSet) -> None:
    url = reverse("delivery:ruleset_delete", args=[rule_set.pk])
    html = manager_client.post(url).content.decode()
    assert question(html) == "Delete the rule set “site” and its 3 rules?"
    assert RuleSet.objects.exists()
    manager_client.post(url, {"confirmed": "1"})
    assert not RuleSet.objects.exists()


def test_a_long_list_names_the_first_fifty_and_counts_the_rest(manager_client: Any) -> None:
    urls = "\n".join(f"http://cdn.example.com/{n}.jpg" for n in range(60))
    html = manager_client.post(reverse("delivery:purge"), {"urls": urls}).content.decode()
    assert question(html) == "Refresh 60 URLs at the edge?"
    assert len(re.findall(r"<li>http://cdn\.example\.com/", html)) == 50
    assert re.search(r'id="confirm-more">\s*and 10 more\s*<', html)
    assert hidden_fields(html)["urls"] == urls  # every URL is sent on confirmation
