"""The editor's lint endpoint: edgerules diagnostics with line and column, translated titles,
and clear refusals of malformed requests."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def lint(client: Any, payload: Any) -> Any:
    return client.post(reverse("delivery:lint"), payload, content_type="application/json")


def test_a_clean_rule_has_no_diagnostics(manager_client: Any) -> None:
    response = lint(manager_client, {"rule": "/$1'.m3u8'", "pattern": r"/(.*)/playlist\.m3u8$"})
    assert response.json() == {"diagnostics": []}


def test_an_unbalanced_call_is_located(manager_client: Any) -> None:
    found = lint(manager_client, {"rule": "$WHEN($EQ($_HOST, a)", "pattern": ""}).json()
    first = found["diagnostics"][0]
    assert (first["code"], first["line"], first["column"]) == ("unbalanced-paren", 1, 6)
    assert first["text"].startswith("Line 1, column 6: Unbalanced parentheses")


def test_errors_on_a_second_line_carry_that_line(manager_client: Any) -> None:
    found = lint(manager_client, {"rule": "/a\n$NOPE(1)", "pattern": ""}).json()
    first = found["diagnostics"][0]
    assert (first["code"], first["line"], first["column"]) == ("unknown-function", 2, 1)


def test_pattern_errors_are_reported_for_the_pattern(manager_client: Any) -> None:
    found = lint(manager_client, {"rule": "/x", "pattern": "^/(a"}).json()["diagnostics"]
    assert [(d["field"], d["code"]) for d in found] == [("pattern", "bad-pattern")]


def test_a_group_the_pattern_does_not_capture_is_an_error(manager_client: Any) -> None:
    found = lint(manager_client, {"rule": "/$2", "pattern": "^/(a)$"}).json()["diagnostics"]
    assert [d["code"] for d in found] == ["unknown-group"]


def test_titles_are_translated(manager_client: Any) -> None:
    response = manager_client.post(reverse("delivery:lint"), {"rule": "$NOPE(1)"},
                                   content_type="application/json",
                                   HTTP_ACCEPT_LANGUAGE="zh-hans")
    found = response.json()["diagnostics"]
    assert found[0]["title"] == "未知函数"


@pytest.mark.parametrize("body", ["not json", "[1, 2]", '{"rule": 5}'])
def test_malformed_requests_get_400_with_a_message(manager_client: Any, body: str) -> None:
    response = manager_client.post(reverse("delivery:lint"), body,
                                   content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]


def test_only_post_is_allowed(manager_client: Any) -> None:
    assert manager_client.get(reverse("delivery:lint")).status_code == 405
