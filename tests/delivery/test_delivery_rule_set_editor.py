"""Saving rule sets from the editor: rules kept in the chosen order, new rules in test,
rules with syntax errors refused with their line and column and nothing lost."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from console.services import default_domain
from delivery.models import Rule, RuleSet

pytestmark = pytest.mark.django_db


def formset_data(rows: list[dict[str, Any]], initial: int = 0, **top: str) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "site", "description": "", **top,
                            "rules-TOTAL_FORMS": str(len(rows)),
                            "rules-INITIAL_FORMS": str(initial),
                            "rules-MIN_NUM_FORMS": "0", "rules-MAX_NUM_FORMS": "1000"}
    for index, row in enumerate(rows):
        for key, value in row.items():
            if value is False:
                continue
            data[f"rules-{index}-{key}"] = "on" if value is True else value
    return data


def test_a_new_rule_set_is_saved_with_rules_in_the_chosen_order(manager_client: Any,
                                                                 manager: Any) -> None:
    rows: list[dict[str, Any]] = [
        {"position": "2", "pattern": "^/b$", "rule": "/second", "state": "test"},
        {"position": "1", "pattern": "^/a$", "rule": "/first", "breaks": True,
         "state": "enabled"},
        {"position": "", "pattern": "", "rule": "", "state": "test"},  # untouched empty row
    ]
    response = manager_client.post(reverse("delivery:ruleset_new"), formset_data(rows))
    rule_set = RuleSet.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("delivery:ruleset_edit", args=[rule_set.pk])
    assert [(r.position, r.rule, r.breaks, r.state) for r in rule_set.rules.all()] == [
        (1, "/first", True, "enabled"), (2, "/second", False, "test")]
    assert rule_set.updated_by == manager


def test_editing_reorders_deletes_and_adds(manager_client: Any) -> None:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="site")
    first = Rule.objects.create(rule_set=rule_set, position=1, pattern="", rule="/one")
    second = Rule.objects.create(rule_set=rule_set, position=2, pattern="", rule="/two")
    third = Rule.objects.create(rule_set=rule_set, position=3, pattern="", rule="/three")
    rows: list[dict[str, Any]] = [
        {"id": str(first.pk), "position": "3", "pattern": "", "rule": "/one", "state": "test"},
        {"id": str(second.pk), "position": "2", "pattern": "", "rule": "/two", "DELETE": True},
        {"id": str(third.pk), "position": "1", "pattern": "", "rule": "/three", "state": "test"},
        {"position": "2", "pattern": "^/new$", "rule": "/new", "state": "test"},
    ]
    response = manager_client.post(reverse("delivery:ruleset_edit", args=[rule_set.pk]),
                                   formset_data(rows, initial=3))
    assert response.status_code == 302
    assert [(r.position, r.rule) for r in rule_set.rules.all()] == [
        (1, "/three"), (2, "/new"), (3, "/one")]


def test_a_rule_with_a_syntax_error_is_refused_with_its_position(manager_client: Any) -> None:
    rows = [{"position": "1", "pattern": "", "rule": "/ok", "state": "test"},
            {"position": "2", "pattern": "", "rule": "$WHEN($EQ($_HOST, a)", "state": "test"}]
    response = manager_client.post(reverse("delivery:ruleset_new"), formset_data(rows))
    assert response.status_code == 200
    assert not RuleSet.objects.exists()
    html = response.content.decode()
    assert "Line 1, column 6: Unbalanced parentheses" in html
    assert "$WHEN($EQ($_HOST, a)" in html  # what was typed is still there


def test_a_bad_pattern_is_refused_on_the_pattern(manager_client: Any) -> None:
    rows = [{"position": "1", "pattern": "^/(a", "rule": "/x", "state": "test"}]
    response = manager_client.post(reverse("delivery:ruleset_new"), formset_data(rows))
    assert response.status_code == 200
    assert response.context["formset"].forms[0].errors["pattern"]


def test_a_duplicate_name_is_refused(manager_client: Any) -> None:
    RuleSet.objects.create(domain=default_domain(), name="site")
    response = manager_client.post(reverse("delivery:ruleset_new"), formset_data([]))
    assert response.status_code == 200
    assert response.context["form"].errors["name"]
    assert RuleSet.objects.count() == 1


def test_deleting_a_rule_set(manager_client: Any) -> None:
    rule_set = RuleSet.objects.create(domain=default_domain(), name="old")
    Rule.objects.create(rule_set=rule_set, position=1, pattern="", rule="/x")
    response = manager_client.post(reverse("delivery:ruleset_delete", args=[rule_set.pk]),
                                   {"confirmed": "1"})
    assert response.status_code == 302
    assert not RuleSet.objects.exists()
    assert not Rule.objects.exists()
