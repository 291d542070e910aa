"""The language's vocabulary matches the spec's tables, names and minimum arities included."""

from __future__ import annotations

import pytest

from edgerules import RuleSyntaxError, lint, parse
from edgerules.functions import BUILDERS
from edgerules.names import FUNCTION_ARITY
from edgerules.parser import MAX_NESTING

# Parameters shown in content-delivery.md's function table (plus the two rate limits of its
# example): the minimum number of arguments of each function.
SPEC_ARITY = {
    "WHEN": 1,
    "NOT": 1,
    "ALL": 0,
    "ANY": 0,
    "OR": 0,
    "SELECT": 3,
    "ENCODE_BASE64": 1,
    "DECODE_BASE64": 1,
    "MD5": 1,
    "SUB": 3,
    "GT": 2,
    "GE": 2,
    "EQ": 2,
    "UPPER": 1,
    "LOWER": 1,
    "MATCH": 3,
    "PCALL": 1,
    "ADD_REQ_HEADER": 2,
    "DEL_REQ_HEADER": 1,
    "ADD_RSP_HEADER": 3,
    "DEL_RSP_HEADER": 1,
    "DEL_ARG": 1,
    "REDIRECT": 2,
    "EXIT": 2,
    "RANDI": 2,
    "REDIRECT404": 1,
    "LIMIT_RATE_AFTER": 2,
    "LIMIT_RATE": 2,
}

SPEC_VARIABLES = [
    "$_HOST",
    "$_HOST_2",
    "$_GET_name",
    "$_POST_name",
    "$_HEADER_name",
    "$_COOKIE_name",
    "$_RANDOM",
    "$_RANDOM_5",
    "$_URI",
    "$_QUERY",
    "$_METHOD",
    "$_SCHEME",
    "$_TIME",
    "$1",
]


def test_the_language_knows_exactly_the_spec_functions() -> None:
    assert FUNCTION_ARITY == SPEC_ARITY
    assert BUILDERS.keys() == SPEC_ARITY.keys()


@pytest.mark.parametrize(("name", "arity"), sorted(SPEC_ARITY.items()))
def test_each_function_accepts_its_minimum_arity(name: str, arity: int) -> None:
    parse(f"${name}({', '.join(['1'] * arity)})")


@pytest.mark.parametrize(("name", "arity"), sorted((n, a) for n, a in SPEC_ARITY.items() if a > 0))
def test_each_function_rejects_one_argument_less(name: str, arity: int) -> None:
    args = ", ".join(["1"] * (arity - 1))
    with pytest.raises(RuleSyntaxError) as caught:
        parse(f"${name}({args})")
    assert caught.value.first.code == "arity"


@pytest.mark.parametrize("variable", SPEC_VARIABLES)
def test_each_spec_variable_parses(variable: str) -> None:
    parse(f"/{variable}")


@pytest.mark.parametrize(
    "name", ["$CAPTURE(a, b, c)", "$SET_METHOD(GET)", "$LEN(a)", "$upper(a)", "$MD(a)"]
)
def test_functions_outside_the_table_are_unknown(name: str) -> None:
    with pytest.raises(RuleSyntaxError) as caught:
        parse(name)
    assert caught.value.first.code == "unknown-function"


@pytest.mark.parametrize("name", ["$_ARGS", "$_HOST_x", "$_RANDOM_x", "$_URI_1", "$_host"])
def test_variables_outside_the_table_are_unknown(name: str) -> None:
    with pytest.raises(RuleSyntaxError) as caught:
        parse(name)
    assert caught.value.first.code == "unknown-variable"


def test_it_refuses_calls_nested_too_deeply() -> None:
    deep = "$UPPER(" * (MAX_NESTING + 1) + "x" + ")" * (MAX_NESTING + 1)
    assert [d.code for d in lint(deep)] == ["too-deep"]
    fine = "$UPPER(" * MAX_NESTING + "x" + ")" * MAX_NESTING
    assert lint(fine) == []
