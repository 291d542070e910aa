"""Left-out optional arguments ($MATCH E3, $ADD_RSP_HEADER E3, $RANDI E2, $EXIT E2) are the
empty string; rules written with the argument (empty or not) keep working as before."""

from __future__ import annotations

import random

import pytest

from edgerules import Exit, HeaderChange, RequestContext, Status, evaluate, lint
from edgerules.effects import RESPONSE_HEADER


def ctx(uri: str = "/Foo/a") -> RequestContext:
    return RequestContext(host="cdn.example.com", uri=uri, rng=random.Random(3))


def test_match_without_a_flag_is_case_sensitive() -> None:
    assert evaluate("$MATCH($_URI, '^/foo/')", ctx()).value == ""
    assert evaluate("$MATCH($_URI, '^/foo/', i)", ctx()).value == "true"
    assert evaluate("$MATCH($_URI, '^/Foo/', )", ctx()).value == "true"


def test_exit_without_a_body_answers_an_empty_body() -> None:
    assert evaluate("$EXIT(403)", ctx()).response == Exit(403, "")
    assert evaluate("$EXIT(403, no)", ctx()).response == Exit(403, "no")


def test_add_rsp_header_without_e3_adds_and_with_e3_overwrites() -> None:
    assert evaluate("$ADD_RSP_HEADER(X-A, 1)", ctx()).effects == (
        (RESPONSE_HEADER, HeaderChange("add", "X-A", "1")),
    )
    assert evaluate("$ADD_RSP_HEADER(X-A, 1, )", ctx()).effects == (
        (RESPONSE_HEADER, HeaderChange("add", "X-A", "1")),
    )
    assert evaluate("$ADD_RSP_HEADER(X-A, 1, yes)", ctx()).effects == (
        (RESPONSE_HEADER, HeaderChange("set", "X-A", "1")),
    )


def test_randi_with_one_bound_draws_from_zero() -> None:
    values = {int(evaluate("$RANDI(3)", RequestContext(rng=random.Random(n))).value)
              for n in range(60)}
    assert values == {0, 1, 2, 3}
    assert evaluate("$RANDI(3)", ctx()).value == evaluate("$RANDI(3, )", ctx()).value


@pytest.mark.parametrize(
    "rule",
    [
        "$ADD_RSP_HEADER(X-Served-By, demo-edge, )",
        "$RANDI(10,)",
        "$MATCH($_URI, a, )",
        "$EXIT(403, )",
    ],
)
def test_a_rule_written_with_the_empty_argument_stays_valid(rule: str) -> None:
    assert lint(rule) == []
    assert evaluate(rule, ctx()).status in (Status.APPLIED, Status.ENDED)


@pytest.mark.parametrize(
    ("rule", "missing"),
    [
        ("$ADD_RSP_HEADER(X-A)", "E2 (value)"),
        ("$MATCH($_URI)", "E2 (pattern)"),
        ("$RANDI()", "E1 (bound)"),
        ("$EXIT()", "E1 (status)"),
        ("$SUB(abc, 1)", "to (last position)"),
        ("$LIMIT_RATE(100)", "E2 (unit: k or m)"),
    ],
)
def test_a_required_parameter_still_cannot_be_left_out(rule: str, missing: str) -> None:
    (error,) = lint(f"/a{rule}")
    assert (error.code, error.column) == ("arity", 3)
    name = rule.split("(")[0]
    assert error.message.startswith(f"{name} is missing {missing}")


def test_more_arguments_than_a_function_uses_is_a_warning() -> None:
    (warning,) = lint("$EXIT(403, no, extra)")
    assert (warning.code, warning.severity) == ("extra-arguments", "warning")
