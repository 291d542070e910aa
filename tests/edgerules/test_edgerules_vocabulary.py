"""The language's vocabulary matches the spec's tables: names, required and optional
parameters (DECISIONS.md, "Content delivery": the documented examples are normative)."""

from __future__ import annotations

import pytest

from edgerules import RuleSyntaxError, lint, parse
from edgerules.functions import BUILDERS
from edgerules.names import FUNCTIONS
from edgerules.parser import MAX_NESTING

# Parameters of content-delivery.md's function table (plus the two rate limits of its example):
# (required, accepted), accepted None for any number. Optional, per DECISIONS.md: $MATCH E3,
# $ADD_RSP_HEADER E3, $RANDI E2 and $EXIT E2; every other parameter is required.
SPEC_PARAMETERS: dict[str, tuple[int, int | None]] = {
    "WHEN": (1, None),
    "NOT": (1, 1),
    "ALL": (0, None),
    "ANY": (0, None),
    "OR": (0, None),
    "SELECT": (3, 3),
    "ENCODE_BASE64": (1, 1),
    "DECODE_BASE64": (1, 1),
    "MD5": (1, 1),
    "SUB": (3, 3),
    "GT": (2, 2),
    "GE": (2, 2),
    "EQ": (2, 2),
    "UPPER": (1, 1),
    "LOWER": (1, 1),
    "MATCH": (2, 3),
    "PCALL": (1, 1),
    "ADD_REQ_HEADER": (2, 2),
    "DEL_REQ_HEADER": (1, 1),
    "ADD_RSP_HEADER": (2, 3),
    "DEL_RSP_HEADER": (1, 1),
    "DEL_ARG": (1, 1),
    "REDIRECT": (2, 2),
    "EXIT": (1, 2),
    "RANDI": (1, 2),
    "REDIRECT404": (1, 1),
    "LIMIT_RATE_AFTER": (2, 2),
    "LIMIT_RATE": (2, 2),
    # The rest of the public page (cdn/edgerules.md); $INT E2, E3 and $STRF_TIME E2 are the
    # page's "可选" (optional).
    "CAPTURE": (3, 3),
    "SET_METHOD": (1, 1),
    "SET_BODY": (1, 1),
    "ADD": (2, 2),
    "MOD": (2, 2),
    "MSUB": (2, 2),
    "MULTIPLY": (2, 2),
    "DIVIDE": (2, 2),
    "BYTE": (1, 1),
    "FLOOR": (1, 1),
    "CEIL": (1, 1),
    "GSUB": (4, 4),
    "LEN": (1, 1),
    "ESCAPE": (1, 1),
    "UNESCAPE": (1, 1),
    "MD5_BIN": (1, 1),
    "UNIXT": (6, 6),
    "INT": (1, 3),
    "STRF_TIME": (1, 2),
}
SPEC_ARITY = {name: required for name, (required, _accepted) in SPEC_PARAMETERS.items()}
OPTIONAL = {("MATCH", "E3"), ("ADD_RSP_HEADER", "E3"), ("RANDI", "E2"), ("EXIT", "E2"),
            ("INT", "E2"), ("INT", "E3"), ("STRF_TIME", "E2")}

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
    "$_IP",
    "$_BODY",
    "$_GEOIP_COUNTRY_CODE",
    "$1",
]


def test_the_language_knows_exactly_the_spec_functions() -> None:
    found = {name: (sig.required, sig.accepted) for name, sig in FUNCTIONS.items()}
    assert found == SPEC_PARAMETERS
    assert BUILDERS.keys() == SPEC_PARAMETERS.keys()


def test_exactly_the_decided_parameters_are_optional() -> None:
    optional = {
        (name, parameter.name)
        for name, signature in FUNCTIONS.items()
        for parameter in signature.parameters
        if parameter.optional
    }
    assert optional == OPTIONAL


@pytest.mark.parametrize(
    ("name", "usage"),
    [
        ("MATCH", "$MATCH(E1, E2[, E3])"),
        ("EXIT", "$EXIT(E1[, E2])"),
        ("WHEN", "$WHEN(E1, ...)"),
        ("ALL", "$ALL(...)"),
        ("SUB", "$SUB(E1, from, to)"),
    ],
)
def test_usage_marks_optional_parameters_in_brackets(name: str, usage: str) -> None:
    assert FUNCTIONS[name].usage() == usage


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
    "name", ["$CAPTURE2(a, b, c)", "$SET_HEADER(GET)", "$LENGTH(a)", "$upper(a)", "$MD(a)"]
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
