"""The documented examples in the back-office: the editor's lint endpoint finds nothing, the
editor saves them, and its function reference says which parameters may be left out; a rule
missing a required argument is still refused naming the function, parameter and column."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from delivery.models import RuleSet
from tests.edgerules.documented_examples import EXAMPLES, Example

pytestmark = pytest.mark.django_db


def lint(client: Any, rule: str, pattern: str = "", **extra: Any) -> list[dict[str, Any]]:
    response = client.post(reverse("delivery:lint"), {"rule": rule, "pattern": pattern},
                           content_type="application/json", **extra)
    return response.json()["diagnostics"]


@pytest.mark.parametrize("example", EXAMPLES.values(), ids=EXAMPLES.keys())
def test_the_editor_finds_nothing_in_a_documented_example(manager_client: Any,
                                                          example: Example) -> None:
    assert lint(manager_client, example.rule, example.pattern) == []


def test_the_editor_saves_every_documented_example(manager_client: Any) -> None:
    data: dict[str, Any] = {"name": "docs", "description": "",
                            "rules-TOTAL_FORMS": str(len(EXAMPLES)), "rules-INITIAL_FORMS": "0",
                            "rules-MIN_NUM_FORMS": "0", "rules-MAX_NUM_FORMS": "1000"}
    for index, example in enumerate(EXAMPLES.values()):
        data[f"rules-{index}-position"] = str(index + 1)
        data[f"rules-{index}-pattern"] = example.pattern
        data[f"rules-{index}-rule"] = example.rule
    response = manager_client.post(reverse("delivery:ruleset_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    saved = RuleSet.objects.get(name="docs")
    assert [rule.rule for rule in saved.rules.all()] == [e.rule for e in EXAMPLES.values()]


def test_a_missing_required_argument_names_function_parameter_and_column(
        manager_client: Any) -> None:
    (found,) = lint(manager_client, "/a$REDIRECT(https://$_HOST$_URI)")
    assert (found["code"], found["line"], found["column"]) == ("arity", 1, 3)
    assert found["text"].startswith("Line 1, column 3: Too few arguments ($REDIRECT is "
                                    "missing E2 (status: 301 or 302)")


def test_the_function_reference_marks_optional_parameters(manager_client: Any) -> None:
    html = manager_client.get(reverse("delivery:ruleset_new")).content.decode()
    assert 'id="dl-function-reference"' in html
    assert "<code>$MATCH(E1, E2[, E3])</code>" in html
    assert "<code>$EXIT(E1[, E2])</code>" in html
    assert "<code>$RANDI(E1[, E2])</code>" in html
    assert "<code>$ADD_RSP_HEADER(E1, E2[, E3])</code>" in html
    assert "<code>$REDIRECT(E1, E2)</code>" in html
    assert "E3 may be left out (empty string)." in html


def test_the_function_reference_is_translated(manager_client: Any) -> None:
    html = manager_client.get(reverse("delivery:ruleset_new"),
                              HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "函数参考" in html
    assert "E2 可以省略（为空字符串）。" in html
    assert "以状态码 E1 和响应体 E2 结束请求。" in html
