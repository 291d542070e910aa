"""Conditions and control functions: $WHEN $NOT $ALL $ANY $OR $SELECT $PCALL, and truthiness."""

from __future__ import annotations

import pytest

from edgerules import Exit, HeaderChange, RequestContext, Status, evaluate
from edgerules.effects import RESPONSE_HEADER


def ctx(**fields: object) -> RequestContext:
    return RequestContext(host="www.example.com", **fields)  # type: ignore[arg-type]


def value_of(rule: str, **fields: object) -> str:
    result = evaluate(rule, ctx(**fields))
    assert result.status is Status.APPLIED, result.error
    return result.value


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("$NOT('')", "true"),
        ("$NOT(x)", ""),
        ("$NOT(0)", ""),
        ("$NOT(false)", ""),
        ("$NOT($NOT(x))", "true"),
    ],
)
def test_not_treats_only_the_empty_string_as_false(rule: str, expected: str) -> None:
    assert value_of(rule) == expected


def test_when_true_returns_empty_and_the_rule_continues() -> None:
    assert value_of("$WHEN($EQ($_HOST, www.example.com), x)/ok") == "/ok"


def test_when_false_stops_the_rule_and_locates_the_when() -> None:
    result = evaluate("/a\n  $WHEN($EQ($_HOST, other))/b", ctx())
    assert result.status is Status.STOPPED
    assert result.stopped_at == (2, 3)


def test_when_stopped_rule_keeps_no_effect() -> None:
    result = evaluate("$ADD_RSP_HEADER(X-A, 1, )$WHEN('')", ctx())
    assert result.status is Status.STOPPED
    assert result.effects == ()


def test_when_short_circuits_after_the_first_false_condition() -> None:
    result = evaluate("$WHEN('', $EXIT(403, no))", ctx())
    assert result.status is Status.STOPPED


def test_when_evaluates_conditions_up_to_the_false_one() -> None:
    result = evaluate("$WHEN(x, $EXIT(403, no))", ctx())
    assert result.response == Exit(403, "no")


def test_when_all_without_arguments_does_not_answer_403() -> None:
    # The public page: $ALL() is false, so $WHEN stops before $EXIT(403).
    result = evaluate("$WHEN($ALL(), $EXIT(403))", ctx())
    assert (result.status, result.response) == (Status.STOPPED, None)


def test_exit_without_a_body_answers_with_an_empty_one() -> None:
    result = evaluate("$WHEN($ALL(a), $EXIT(403))", ctx())
    assert (result.status, result.response) == (Status.ENDED, Exit(403, ""))


def test_all_is_true_only_when_every_argument_is_true() -> None:
    assert value_of("$ALL(a, b, c)") == "true"
    assert value_of("$ALL(a, '', c)") == ""
    assert value_of("$ALL()") == ""


def test_all_short_circuits_on_the_first_false() -> None:
    assert value_of("$ALL('', $_GET_missing)") == ""


def test_any_is_true_when_one_argument_is_true() -> None:
    assert value_of("$ANY('', b)") == "true"
    assert value_of("$ANY('', '')") == ""
    assert value_of("$ANY()") == ""


def test_any_short_circuits_on_the_first_true() -> None:
    assert value_of("$ANY(x, $EXIT(403, no))") == "true"


def test_when_any_of_empty_list_stops_before_the_exit() -> None:
    assert evaluate("$WHEN($ANY(), $EXIT(403, no))", ctx()).status is Status.STOPPED


def test_or_returns_the_first_true_value() -> None:
    assert value_of("$OR('', $_GET_lang, en)", query="lang=fr") == "fr"
    assert value_of("$OR('', $PCALL($_GET_lang), en)") == "en"
    assert value_of("[$OR('', '')]") == "[]"


def test_or_does_not_evaluate_after_the_first_true_value() -> None:
    assert value_of("$OR(a, $_GET_missing)") == "a"


def test_select_picks_the_second_argument_when_the_first_is_true() -> None:
    assert value_of("$SELECT($EQ($_SCHEME, https), secure, plain)", scheme="https") == "secure"
    assert value_of("$SELECT($EQ($_SCHEME, https), secure, plain)", scheme="http") == "plain"


def test_select_does_not_evaluate_the_branch_it_does_not_pick() -> None:
    assert value_of("$SELECT(x, ok, $EXIT(403, no))") == "ok"


def test_extra_arguments_are_evaluated_and_ignored() -> None:
    result = evaluate("$SELECT(x, a, b, $ADD_RSP_HEADER(X-Extra, 1, ))", ctx())
    assert result.value == "a"
    assert result.effects == ((RESPONSE_HEADER, HeaderChange("add", "X-Extra", "1")),)


def test_extra_argument_that_fails_fails_the_rule() -> None:
    assert evaluate("$UPPER(a, $DECODE_BASE64(!))", ctx()).status is Status.FAILED


def test_an_absent_variable_in_an_extra_argument_is_empty() -> None:
    assert value_of("$UPPER(a, $_GET_missing)") == "A"


def test_pcall_turns_a_failure_into_the_empty_string() -> None:
    assert value_of("/a$PCALL($_GET_missing)/b") == "/a/b"


def test_pcall_returns_the_value_when_nothing_fails() -> None:
    assert value_of("$PCALL($_GET_id)", query="id=7") == "7"


def test_pcall_undoes_effects_made_before_the_failure() -> None:
    result = evaluate("$PCALL($ADD_RSP_HEADER(X-A, 1, )$DECODE_BASE64(!))/x", ctx())
    assert (result.status, result.value, result.effects) == (Status.APPLIED, "/x", ())


def test_pcall_keeps_effects_when_nothing_fails() -> None:
    result = evaluate("$PCALL($ADD_RSP_HEADER(X-A, 1, ))", ctx())
    assert result.effects == ((RESPONSE_HEADER, HeaderChange("add", "X-A", "1")),)


def test_pcall_does_not_catch_a_false_when() -> None:
    assert evaluate("$PCALL($WHEN(''))/x", ctx()).status is Status.STOPPED


def test_pcall_does_not_catch_an_exit() -> None:
    assert evaluate("$PCALL($EXIT(404, gone))", ctx()).response == Exit(404, "gone")


def test_pcall_does_not_protect_its_extra_arguments() -> None:
    assert evaluate("$PCALL(a, $DECODE_BASE64(!))", ctx()).status is Status.FAILED
