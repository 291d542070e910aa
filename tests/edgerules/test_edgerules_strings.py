"""Plain and quoted strings, escapes, whitespace and concatenation of the rewrite language."""

from __future__ import annotations

import pytest

from edgerules import RequestContext, Status, evaluate, parse
from edgerules.nodes import Literal


def value_of(rule: str, **request: object) -> str:
    result = evaluate(rule, RequestContext(host="www.example.com", **request))  # type: ignore[arg-type]
    assert result.status is Status.APPLIED, result.error
    return result.value


def test_it_keeps_a_quoted_variable_name_literal() -> None:
    assert value_of("/foo/'$_HOST'") == "/foo/$_HOST"


def test_it_interpolates_the_same_variable_outside_quotes() -> None:
    assert value_of("/foo/$_HOST") == "/foo/www.example.com"


def test_it_resolves_backslash_escapes_inside_quotes() -> None:
    assert value_of(r"/foo/'$\\,\''") == "/foo/$\\,'"


def test_it_ignores_whitespace_in_plain_text() -> None:
    assert value_of("/foo /  bar\n/baz\t") == "/foo/bar/baz"


def test_it_keeps_whitespace_inside_quotes() -> None:
    assert value_of("/a' b\n c'") == "/a b\n c"


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (r"/a\$b", "/a$b"),
        (r"/a\(b\)", "/a(b)"),
        (r"/a\,b", "/a,b"),
        (r"/a\'b", "/a'b"),
        (r"/a\\b", "/a\\b"),
        (r"/a\ b", "/a b"),
        (r"/a\?b", "/a?b"),
    ],
)
def test_it_accepts_every_plain_escape(rule: str, expected: str) -> None:
    assert value_of(rule) == expected


def test_it_concatenates_adjacent_pieces() -> None:
    assert value_of("/$_HOST_1'-'$UPPER(x)'.'html") == "/www-X.html"


def test_it_concatenates_inside_a_function_argument() -> None:
    assert value_of("$UPPER(a'b,c'$_HOST_2)") == "AB,CEXAMPLE"


def test_it_treats_a_question_mark_inside_the_rule_as_text() -> None:
    assert value_of("/pay.php?id=1") == "/pay.php?id=1"


def test_it_does_not_interpret_function_calls_inside_quotes() -> None:
    assert value_of("'$UPPER(a)'") == "$UPPER(a)"


def test_it_marks_quoted_pieces_in_the_tree() -> None:
    parts = parse("/a'b'").body.parts
    assert parts == (
        Literal("/a", parts[0].span, quoted=False),
        Literal("b", parts[1].span, quoted=True),
    )


def test_it_evaluates_an_empty_rule_to_the_empty_string() -> None:
    assert value_of("   ") == ""


def test_it_allows_whitespace_between_function_name_and_parenthesis() -> None:
    assert value_of("$UPPER (a)") == "A"


def test_it_reads_a_multi_line_rule() -> None:
    rule = "$WHEN(\n  $EQ($_HOST, www.example.com)\n)\n/home"
    assert value_of(rule) == "/home"
