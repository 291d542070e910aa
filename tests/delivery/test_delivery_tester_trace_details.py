"""The tester's trace says which condition of a $WHEN/$ALL/$ANY was false (its text and value)
and the value each variable had, absent ones marked; an absent variable in the rule's own text
is shown as "rewrite failed: `$_GET_id` is absent" with its column; in English and Chinese."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from delivery.tester import format_trace, outcome_dict, run
from tests.edgerules.documented_examples import DENY_FOO_WITHOUT_REFERER

pytestmark = pytest.mark.django_db


def run_tester(client: Any, rule: str, pattern: str = "", **request: Any) -> dict[str, Any]:
    payload = {"rules": [{"pattern": pattern, "rule": rule, "break": False, "state": "enabled"}],
               "request": request}
    response = client.post(reverse("delivery:test"), payload, content_type="application/json",
                           **request.pop("_extra", {}))
    assert response.status_code == 200, response.content
    return response.json()


def test_the_false_condition_is_named_with_its_text_and_value(manager_client: Any) -> None:
    data = run_tester(manager_client, DENY_FOO_WITHOUT_REFERER.rule, url="/foo/a.txt",
                     headers="Referer: https://shop.example.com/")
    step = data["outcome"]["trace"][0]
    assert step["status"] == "stopped"
    false = [check for check in step["checks"] if not check["held"]]
    assert false == [{"function": "WHEN", "position": 2, "text": "$NOT($_HEADER_referer)",
                      "value": "", "held": False, "line": 1, "column": 32}]
    assert ("Condition 2 of $WHEN (line 1, column 32) was false: "
            "<code>$NOT($_HEADER_referer)</code>") in data["html"]


def test_variables_are_shown_with_their_values_and_absent_ones_marked(
        manager_client: Any) -> None:
    data = run_tester(manager_client, DENY_FOO_WITHOUT_REFERER.rule, url="/foo/a.txt")
    step = data["outcome"]["trace"][0]
    assert step["status"] == "ended"
    assert [(v["name"], v["value"], v["absent"]) for v in step["variables"]] == [
        ("$_URI", "/foo/a.txt", False), ("$_HEADER_referer", None, True)]
    html = data["html"]
    assert 'data-variable="$_HEADER_referer" data-absent="true"' in html
    assert "<em>absent</em>" in html
    assert "<code>/foo/a.txt</code>" in html


def test_an_absent_variable_in_the_rule_text_fails_the_rewrite_naming_it(
        manager_client: Any) -> None:
    data = run_tester(manager_client, "/item?id=$_GET_id", url="/a?other=1")
    step = data["outcome"]["trace"][0]
    assert step["status"] == "failed"
    assert step["error"]["text"] == "rewrite failed: `$_GET_id` is absent (line 1, column 10)"
    assert "rewrite failed: `$_GET_id` is absent (line 1, column 10)" in data["html"]


def test_the_trace_details_are_translated(manager_client: Any) -> None:
    data = run_tester(manager_client, "$WHEN($NOT($_GET_x))/item?id=$_GET_id", url="/a",
                     _extra={"HTTP_ACCEPT_LANGUAGE": "zh-hans"})
    assert data["outcome"]["trace"][0]["error"]["text"] == \
        "改写失败：`$_GET_id` 不存在（第 1 行第 30 列）"
    stopped = run_tester(manager_client, "$WHEN($_GET_x)/b", url="/a",
                        _extra={"HTTP_ACCEPT_LANGUAGE": "zh-hans"})
    assert "$WHEN 的第 1 个条件（第 1 行第 7 列）不成立：" in stopped["html"]
    assert "不存在" in stopped["html"]


def test_the_command_line_trace_lists_the_false_condition_and_variables() -> None:
    from delivery.tester import SampleRequest, build_context

    ctx = build_context(SampleRequest(url="/foo/a.txt", headers="Referer: https://a.example/"))
    rules = [{"rule": DENY_FOO_WITHOUT_REFERER.rule, "state": "enabled"}]
    text = format_trace(run(rules, ctx))
    assert "  false: condition 2 of $WHEN at 1:32, $NOT($_HEADER_referer) = ''" in text
    assert "  $_HEADER_referer = 'https://a.example/'" in text
    assert outcome_dict(run(rules, ctx))["trace"][0]["variables"][0]["name"] == "$_URI"
