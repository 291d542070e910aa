"""String, number and random functions: base64, MD5, SUB, GT, GE, EQ, UPPER, LOWER, MATCH, RANDI."""

from __future__ import annotations

import base64
import hashlib
import random

import pytest

from edgerules import RequestContext, Status, evaluate
from edgerules.diagnostics import Diagnostic


def ctx(**fields: object) -> RequestContext:
    return RequestContext(host="www.example.com", **fields)  # type: ignore[arg-type]


def value_of(rule: str, **fields: object) -> str:
    result = evaluate(rule, ctx(**fields))
    assert result.status is Status.APPLIED, result.error
    return result.value


def error_of(rule: str, **fields: object) -> Diagnostic:
    result = evaluate(rule, ctx(**fields))
    assert result.status is Status.FAILED
    assert result.error is not None
    return result.error


def test_encode_base64_uses_the_standard_alphabet_over_utf8() -> None:
    expected = base64.b64encode("a?b>中".encode()).decode()
    assert value_of("$ENCODE_BASE64('a?b>中')") == expected


def test_decode_base64_reverses_encode() -> None:
    assert value_of("$DECODE_BASE64($ENCODE_BASE64('hello, world'))") == "hello, world"


def test_decode_base64_accepts_missing_padding() -> None:
    assert value_of("$DECODE_BASE64(YWI)") == "ab"


def test_decode_base64_of_garbage_fails_the_rule_at_the_call() -> None:
    error = error_of("/x$DECODE_BASE64('@@@')")
    assert (error.code, error.column) == ("bad-argument", 3)


def test_decode_base64_of_non_utf8_bytes_fails_the_rule() -> None:
    assert error_of("$DECODE_BASE64(/w==)").code == "bad-argument"


def test_md5_is_lowercase_hex_of_utf8() -> None:
    assert value_of("$MD5($_HOST)") == hashlib.md5(b"www.example.com").hexdigest()


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("$SUB(abcdef, 2, 4)", "bcd"),
        ("$SUB(abcdef, 1, 1)", "a"),
        ("$SUB(abcdef, -3, -1)", "def"),
        ("$SUB(abcdef, 3, )", "cdef"),
        ("$SUB(abcdef, , 2)", "ab"),
        ("$SUB(abcdef, 0, 2)", "ab"),
        ("$SUB(abcdef, 4, 2)", ""),
        ("$SUB(abcdef, 5, 99)", "ef"),
        ("$SUB(中文字, 2, 2)", "文"),
    ],
)
def test_sub_follows_lua_string_sub(rule: str, expected: str) -> None:
    assert value_of(rule) == expected


def test_sub_with_a_non_integer_position_fails_the_rule() -> None:
    error = error_of("$SUB(abc, one, 2)")
    assert error.code == "bad-argument" and "from" in error.message


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("$GT(10, 9)", "true"),
        ("$GT(9, 10)", ""),
        ("$GT(5, 5)", ""),
        ("$GE(5, 5)", "true"),
        ("$GE(4.5, 5)", ""),
        ("$GT(0.3, 0.1)", "true"),
        ("$GT(-1, -2)", "true"),
        ("$GE($_GET_v, 2)", "true"),
    ],
)
def test_gt_and_ge_compare_numbers(rule: str, expected: str) -> None:
    assert value_of(rule, query="v=2") == expected


def test_gt_compares_numerically_not_as_text() -> None:
    assert value_of("$GT(10, 9)") == "true"  # as text, "10" < "9"


@pytest.mark.parametrize("rule", ["$GT(abc, 1)", "$GE(1, '')", "$GT(1e3, 1)"])
def test_gt_and_ge_with_a_non_number_fail_the_rule(rule: str) -> None:
    assert error_of(rule).code == "bad-argument"


def test_eq_compares_strings_exactly() -> None:
    assert value_of("$EQ(abc, abc)") == "true"
    assert value_of("$EQ(abc, ABC)") == ""
    assert value_of("$EQ('', '')") == "true"
    assert value_of("$EQ(1, 01)") == ""


def test_upper_and_lower_convert_case() -> None:
    assert value_of("$UPPER(aBc)/$LOWER(aBc)") == "ABC/abc"


def test_match_searches_anywhere_in_the_subject() -> None:
    assert value_of("$MATCH($_URI, 'jpg$', )", uri="/a/b.jpg") == "true"
    assert value_of("$MATCH($_URI, '^/b', )", uri="/a/b.jpg") == ""


def test_match_ignores_case_when_the_third_argument_is_not_empty() -> None:
    assert value_of("$MATCH(IPHONE, iphone, '')") == ""
    assert value_of("$MATCH(IPHONE, iphone, i)") == "true"


def test_match_supports_pcre_syntax() -> None:
    assert value_of(r"$MATCH(abc123, '^(?<w>[a-z]+)\\d++$', )") == "true"


def test_match_with_a_pattern_from_the_request() -> None:
    assert value_of("$MATCH(hello, $_GET_p, )", query="p=^h") == "true"


def test_match_with_a_bad_pattern_fails_the_rule() -> None:
    assert error_of("$MATCH(a, '(', )").code == "bad-regex"
    assert error_of("$MATCH(a, $_GET_p, )", query="p=(").code == "bad-regex"


def test_randi_draws_within_the_bounds_from_the_injected_source() -> None:
    draws = {value_of("$RANDI(3, 5)", rng=random.Random(seed)) for seed in range(60)}
    assert draws == {"3", "4", "5"}


def test_randi_with_empty_second_bound_draws_from_zero() -> None:
    draws = {value_of("$RANDI(2, )", rng=random.Random(seed)) for seed in range(60)}
    assert draws == {"0", "1", "2"}


def test_randi_is_reproducible_with_a_seeded_source() -> None:
    first = value_of("$RANDI(1, 1000000)", rng=random.Random(42))
    assert first == value_of("$RANDI(1, 1000000)", rng=random.Random(42))


@pytest.mark.parametrize("rule", ["$RANDI(x, 2)", "$RANDI(5, 1)", "$RANDI(-1, )"])
def test_randi_with_bad_bounds_fails_the_rule(rule: str) -> None:
    assert error_of(rule).code == "bad-argument"
