"""An absent variable is the empty string inside a function's arguments and fails the rewrite
when written directly into the rule's own text (DECISIONS.md, "Content delivery")."""

from __future__ import annotations

import pytest

from edgerules import RequestContext, Status, evaluate


def ctx(**fields: object) -> RequestContext:
    return RequestContext(host="cdn.example.com", uri="/a", **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "variable",
    ["$_HEADER_referer", "$_GET_id", "$_POST_name", "$_COOKIE_sid", "$_HOST_9", "$3"],
)
def test_an_absent_variable_is_empty_inside_arguments(variable: str) -> None:
    result = evaluate(f"[$UPPER({variable})]", ctx())
    assert (result.status, result.value) == (Status.APPLIED, "[]")


def test_not_of_an_absent_header_is_true() -> None:
    assert evaluate("$NOT($_HEADER_referer)", ctx()).value == "true"


def test_when_with_an_absent_variable_stops_instead_of_failing() -> None:
    result = evaluate("$WHEN($_GET_token)/ok", ctx())
    assert (result.status, result.stopped_at) == (Status.STOPPED, (1, 1))


@pytest.mark.parametrize(
    ("rule", "column"),
    [("/x?id=$_GET_id", 7), ("/$_HEADER_referer", 2), ("/$_HOST_9", 2)],
)
def test_an_absent_variable_in_the_rule_text_fails_the_rewrite(rule: str, column: int) -> None:
    result = evaluate(rule, ctx())
    assert result.status is Status.FAILED
    assert result.error is not None
    assert (result.error.code, result.error.column) == ("missing-variable", column)
    assert result.error.message.startswith(f"`{rule[column - 1:]}` is absent")


def test_a_present_but_empty_variable_in_the_rule_text_is_empty() -> None:
    assert evaluate("/x[$_GET_id]", ctx(query="id=")).value == "/x[]"


def test_an_unknown_group_in_the_rule_text_still_fails() -> None:
    assert evaluate("/$2", ctx()).status is Status.FAILED


def test_pcall_still_protects_an_absent_variable_in_the_rule_text() -> None:
    assert evaluate("/a$PCALL($_GET_id)", ctx()).value == "/a"
