"""Syntax errors: each is structured (code, message, line, column) and exactly located."""

from __future__ import annotations

import pytest

from edgerules import RuleSyntaxError, parse
from edgerules.diagnostics import Diagnostic


def errors_of(rule: str) -> list[Diagnostic]:
    with pytest.raises(RuleSyntaxError) as caught:
        parse(rule)
    return list(caught.value.diagnostics)


def only_error(rule: str) -> Diagnostic:
    found = errors_of(rule)
    assert len(found) == 1, found
    return found[0]


def test_it_rejects_unknown_function() -> None:
    error = only_error("/a$FOO(x)")
    assert (error.code, error.line, error.column, error.end_column) == (
        "unknown-function",
        1,
        3,
        7,
    )
    assert "$FOO" in error.message


def test_it_suggests_the_function_a_typo_meant() -> None:
    assert "did you mean $WHEN?" in only_error("$When($_HOST)").message


def test_it_rejects_unknown_variable_with_a_suggestion() -> None:
    error = only_error("/x/$_HOSTNAME")
    assert (error.code, error.column, error.end_column) == ("unknown-variable", 4, 14)
    assert "did you mean $_HOST" in error.message


def test_it_rejects_a_variable_the_spec_does_not_list() -> None:
    assert only_error("$_CAPTURE_1").code == "unknown-variable"


def test_it_rejects_an_empty_variable_name() -> None:
    assert only_error("/$_").code == "unknown-variable"


def test_it_rejects_a_named_variable_without_a_name() -> None:
    assert only_error("$_GET_").code == "unknown-variable"


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            "$SELECT(a, b)",
            "$SELECT is missing E3 (value if false): it needs 3 arguments, got 2; "
            "usage $SELECT(E1, E2, E3)",
        ),
        (
            "$EXIT()",
            "$EXIT is missing E1 (status): it needs 1 or 2 arguments, got 0; "
            "usage $EXIT(E1[, E2])",
        ),
        (
            "$MATCH($_URI)",
            "$MATCH is missing E2 (pattern): it needs 2 or 3 arguments, got 1; "
            "usage $MATCH(E1, E2[, E3])",
        ),
        (
            "$WHEN()",
            "$WHEN is missing E1 (condition): it needs at least 1 argument, got 0; "
            "usage $WHEN(E1, ...)",
        ),
        (
            "$NOT()",
            "$NOT is missing E (condition): it needs 1 argument, got 0; usage $NOT(E)",
        ),
        (
            "$REDIRECT(/a)",
            "$REDIRECT is missing E2 (status: 301 or 302): it needs 2 arguments, got 1; "
            "usage $REDIRECT(E1, E2)",
        ),
    ],
)
def test_it_rejects_too_few_arguments(rule: str, message: str) -> None:
    error = only_error(rule)
    assert (error.code, error.message, error.column) == ("arity", message, 1)


def test_it_accepts_any_number_of_arguments_for_variadic_functions() -> None:
    for rule in ("$ALL()", "$ANY()", "$OR()", "$ALL(a, b, c, d)"):
        parse(rule)


def test_it_counts_empty_arguments() -> None:
    assert len(parse("$RANDI(10,)").body.parts[0].args) == 2  # type: ignore[union-attr]


def test_it_locates_the_nested_arity_error() -> None:
    error = only_error("$WHEN($ALL(), $EXIT())")
    assert (error.code, error.line, error.column, error.end_column) == ("arity", 1, 15, 20)


def test_it_reports_an_unclosed_parenthesis_at_its_position() -> None:
    error = only_error("$WHEN(\n  $EQ($_HOST, a)\n")
    assert (error.code, error.line, error.column) == ("unbalanced-paren", 1, 6)
    assert "$WHEN" in error.message


def test_it_reports_a_closing_parenthesis_without_opening() -> None:
    error = only_error("/a)b")
    assert (error.code, error.column) == ("unbalanced-paren", 3)


def test_it_reports_an_opening_parenthesis_that_is_not_a_call() -> None:
    error = only_error("/a(b")
    assert (error.code, error.column) == ("unbalanced-paren", 3)


def test_it_reports_a_comma_outside_a_call() -> None:
    assert (only_error("/a,b").code, only_error("/a,b").column) == ("stray-comma", 3)


@pytest.mark.parametrize(
    ("rule", "column"),
    [(r"/a\d", 3), (r"/a\n", 3), ("/a\\", 3), (r"/'\d'", 3)],
)
def test_it_rejects_bad_escapes(rule: str, column: int) -> None:
    error = only_error(rule)
    assert (error.code, error.column) == ("bad-escape", column)


def test_it_rejects_an_unterminated_quoted_string() -> None:
    error = only_error("/a/'open")
    assert (error.code, error.line, error.column) == ("unterminated-string", 1, 4)


def test_it_rejects_a_plain_dollar() -> None:
    error = only_error("/price/$/x")
    assert (error.code, error.column) == ("stray-dollar", 8)


def test_it_rejects_a_function_name_without_parenthesis() -> None:
    error = only_error("/$UPPER/x")
    assert (error.code, error.column, error.end_column) == ("expected-paren", 2, 8)


def test_it_rejects_a_lowercase_name_that_is_not_a_call() -> None:
    assert only_error("/$abc").code == "stray-dollar"


@pytest.mark.parametrize("length", ["0", "33", "100"])
def test_it_rejects_random_length_outside_1_to_32(length: str) -> None:
    error = only_error(f"/$_RANDOM_{length}")
    assert (error.code, error.column) == ("random-length", 2)


@pytest.mark.parametrize("length", ["1", "8", "32"])
def test_it_accepts_random_length_inside_1_to_32(length: str) -> None:
    parse(f"/$_RANDOM_{length}")


def test_it_rejects_host_label_zero() -> None:
    assert only_error("/$_HOST_0").code == "host-index"


def test_it_rejects_break_marker_before_the_end() -> None:
    error = only_error("/a$$/b")
    assert (error.code, error.column) == ("misplaced-break", 3)


def test_it_rejects_break_marker_before_the_query_marker() -> None:
    assert only_error("/a$$?").code == "misplaced-break"


def test_it_rejects_break_marker_inside_a_call() -> None:
    assert only_error("$UPPER($$)").code == "misplaced-break"


def test_it_reports_every_error_in_text_order() -> None:
    found = errors_of("$FOO(a)\n/$_NOPE/\\q\n$SELECT(a)")
    assert [(d.code, d.line, d.column) for d in found] == [
        ("unknown-function", 1, 1),
        ("unknown-variable", 2, 2),
        ("bad-escape", 2, 9),
        ("arity", 3, 1),
    ]


def test_it_exposes_the_first_error_as_the_exception_message() -> None:
    with pytest.raises(RuleSyntaxError, match=r"1:1: unknown function \$FOO"):
        parse("$FOO()")


def test_it_gives_errors_as_plain_dicts_for_the_editor() -> None:
    assert only_error("/a)").as_dict() == {
        "code": "unbalanced-paren",
        "message": "')' has no matching '(' (write \\) for a literal parenthesis)",
        "line": 1,
        "column": 3,
        "end_line": 1,
        "end_column": 4,
        "severity": "error",
        "field": "rule",
    }


def test_it_counts_columns_in_characters_on_later_lines() -> None:
    error = only_error("/中文\n  /é$_X")
    assert (error.line, error.column) == (2, 5)
