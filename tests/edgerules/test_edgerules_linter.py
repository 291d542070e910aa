"""The linter behind the web editor: structured, located diagnostics for every problem."""

from __future__ import annotations

import pytest

from edgerules import RuleSpec, has_errors, lint, lint_pattern, lint_rule_set


def codes(rule: str, pattern: str | None = None) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in lint(rule, pattern=pattern)]


def test_a_correct_rule_has_no_diagnostics() -> None:
    rule = (
        r"$WHEN($EQ($_HOST, www.example.com), $MATCH($_URI, '\\.jpg$', ))"
        r"$ADD_RSP_HEADER(X-Img, 1, )/img/$1"
    )
    assert lint(rule, pattern=r"^/(.*)$") == []


def test_a_regex_backslash_is_written_doubled_in_a_quoted_string() -> None:
    assert [d.code for d in lint(r"$MATCH($_URI, '\.jpg$', )")] == ["bad-escape"]
    assert lint(r"$MATCH($_URI, '\\.jpg$', )") == []


def test_it_reports_syntax_errors_with_positions() -> None:
    assert codes("$FOO(a)\n$_BAR\n$SELECT(a)\n$UPPER(\\d") == [
        ("unknown-function", 1, 1),
        ("unknown-variable", 2, 1),
        ("arity", 3, 1),
        ("unbalanced-paren", 4, 7),
        ("bad-escape", 4, 8),
    ]


def test_it_reports_random_length_out_of_range() -> None:
    assert codes("/$_RANDOM_0/$_RANDOM_33/$_RANDOM_32") == [
        ("random-length", 1, 2),
        ("random-length", 1, 13),
    ]


@pytest.mark.parametrize("status", ["303", "307", "200", "abc", "''"])
def test_it_reports_a_literal_redirect_status_other_than_301_or_302(status: str) -> None:
    found = lint(f"$REDIRECT(/new, {status})")
    assert [(d.code, d.column) for d in found] == [("redirect-status", 17)]
    assert "301 or 302" in found[0].message


@pytest.mark.parametrize("status", ["301", "302", " 301 "])
def test_it_accepts_a_literal_redirect_status_of_301_or_302(status: str) -> None:
    assert lint(f"$REDIRECT(/new, '{status}')") == []


def test_it_does_not_guess_a_redirect_status_computed_per_request() -> None:
    assert lint("$REDIRECT(/new, $_GET_code)") == []


def test_it_reports_a_literal_exit_status_out_of_range() -> None:
    assert codes("$EXIT(99, x)$EXIT(403, denied)") == [("exit-status", 1, 7)]


def test_it_reports_a_literal_match_pattern_that_does_not_compile() -> None:
    assert codes("$MATCH($_URI, '(a', )") == [("bad-regex", 1, 15)]


def test_it_reports_bad_rate_limit_units() -> None:
    assert codes("$LIMIT_RATE(100, kb)$LIMIT_RATE_AFTER(x, m)") == [
        ("rate-limit", 1, 18),
        ("bad-argument", 1, 39),
    ]


def test_it_reports_non_numeric_literal_arguments() -> None:
    assert codes("$GT(abc, 1)$RANDI(1, )$SUB(abc, x, )") == [
        ("bad-argument", 1, 5),
        ("bad-argument", 1, 33),
    ]


def test_it_reports_an_invalid_literal_header_name() -> None:
    assert codes("$ADD_REQ_HEADER('bad name', 1)") == [("bad-header", 1, 17)]


def test_it_reports_a_group_the_pattern_does_not_capture() -> None:
    found = lint("/$1/$2", pattern=r"^/(\w+)")
    assert [(d.code, d.column) for d in found] == [("unknown-group", 5)]
    assert "only 1 capture group" in found[0].message


def test_it_reports_groups_used_with_an_empty_pattern() -> None:
    assert codes("/$1", pattern="") == [("unknown-group", 1, 2)]


def test_it_reports_a_pattern_that_does_not_compile_on_the_pattern_field() -> None:
    found = lint("/x", pattern="^/a(b")
    assert [(d.code, d.field, d.line) for d in found] == [("bad-pattern", "pattern", 1)]
    assert lint_pattern("^/a(b") == found
    assert lint_pattern(r"^/(?<id>\d+)$") == []


def test_extra_arguments_are_a_warning_not_an_error() -> None:
    found = lint("$UPPER(a, b)")
    assert [(d.code, d.severity) for d in found] == [("extra-arguments", "warning")]
    assert not has_errors(found)


def test_errors_sort_before_pattern_diagnostics_and_by_position() -> None:
    found = lint("/$2\n$FOO()", pattern="(")
    assert [(d.field, d.code) for d in found] == [
        ("rule", "unknown-function"),
        ("pattern", "bad-pattern"),
    ]


def test_it_lints_a_whole_rule_set_by_index() -> None:
    report = lint_rule_set(
        [
            RuleSpec("/ok"),
            {"rule": "$REDIRECT(/x, 307)", "pattern": "^/a"},
            RuleSpec("/$3", r"^/(a)"),
        ]
    )
    assert {index: [d.code for d in found] for index, found in report.items()} == {
        1: ["redirect-status"],
        2: ["unknown-group"],
    }


def test_diagnostics_carry_ranges_for_the_editor() -> None:
    (found,) = lint("$WHEN(\n  $_NOPE)")
    assert (found.line, found.column, found.end_line, found.end_column) == (2, 3, 2, 9)
