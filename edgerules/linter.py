"""The linter behind the web editor: every problem of a rule, located, in one pass.

It reports the parser's errors (unknown function or variable, too few arguments, unbalanced
parentheses, bad escapes, ``$_RANDOM_n`` outside 1..32, misplaced ``$$``...) and, on top,
problems it can prove from literal arguments without a request: a ``$REDIRECT`` status other
than 301/302, an ``$EXIT`` status outside 200..599, a ``$MATCH`` pattern that does not compile,
a bad rate-limit unit, an invalid header name, a non-numeric argument of a numeric function, a
literal zero divisor of ``$DIVIDE``/``$MOD``, a ``$SET_METHOD`` method the page does not list,
a ``$n.m`` without an ``n``-th ``$CAPTURE`` in the rule, and (given the rule's pattern) a ``$N``
the pattern does not capture. ``$DEL_RSP_HEADER`` of a protected header is a warning: the call
does nothing. Arguments that
depend on the request are checked when the rule runs instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import regex

from edgerules import diagnostics as codes
from edgerules.diagnostics import Diagnostic
from edgerules.functions.actions import (
    EXIT_STATUS_RANGE,
    HEADER_NAME,
    RATE_UNITS,
    REDIRECT_STATUSES,
)
from edgerules.functions.text import compile_regex
from edgerules.names import METHODS, PROTECTED_RESPONSE_HEADERS
from edgerules.nodes import Call, CaptureRef, Concat, Group, walk
from edgerules.parser import parse_with_diagnostics
from edgerules.patterns import compile_pattern
from edgerules.rulespec import RuleSpec

_INTEGER = re.compile(r"\s*[+-]?[0-9]+\s*")
_NUMBER = re.compile(r"\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*")
_HEADER_ARGS = {"ADD_REQ_HEADER", "DEL_REQ_HEADER", "ADD_RSP_HEADER", "DEL_RSP_HEADER"}
# Function -> positions of arguments that must be integers / numbers when written literally.
_INTEGER_ARGS = {
    "RANDI": (0,), "SUB": (1, 2), "LIMIT_RATE_AFTER": (0,), "LIMIT_RATE": (0,),
    "GSUB": (3,), "UNIXT": (0, 1, 2, 3, 4, 5), "INT": (1, 2),
}
_NUMBER_ARGS = {
    "GT": (0, 1), "GE": (0, 1), "ADD": (0, 1), "MSUB": (0, 1), "MULTIPLY": (0, 1),
    "DIVIDE": (0, 1), "MOD": (0, 1), "FLOOR": (0,), "CEIL": (0,), "STRF_TIME": (0,),
}
# Literal empty is allowed for these (it means "default").
_EMPTY_ALLOWED = {("RANDI", 1), ("SUB", 1), ("SUB", 2), ("GSUB", 3), ("INT", 1), ("INT", 2)}


def lint(rule: str, *, pattern: str | None = None) -> list[Diagnostic]:
    """Every diagnostic of ``rule`` (errors and warnings), sorted by position.

    With ``pattern``, its compile error (``field="pattern"``) is included and ``$N`` is checked
    against its groups.
    """
    tree, found = parse_with_diagnostics(rule)
    group_count: int | None = None
    if pattern is not None:
        compiled = compile_pattern(pattern)
        if compiled.error is not None:
            found.append(compiled.error)
        else:
            group_count = compiled.groups
    nodes = walk(tree.body)
    captures = sum(1 for node in nodes if isinstance(node, Call) and node.name == "CAPTURE")
    for node in nodes:
        if isinstance(node, Call):
            found.extend(_check_call(node))
        elif isinstance(node, CaptureRef) and node.ordinal > captures:
            found.append(
                node.span.diagnostic(
                    codes.UNKNOWN_CAPTURE,
                    f"{node.text}: the rule has "
                    + (f"only {captures} $CAPTURE" if captures else "no $CAPTURE"),
                )
            )
        elif isinstance(node, Group) and group_count is not None and node.index > group_count:
            found.append(
                node.span.diagnostic(
                    codes.UNKNOWN_GROUP,
                    f"${node.index}: the pattern has {_groups(group_count)}",
                )
            )
    return sorted(found, key=lambda d: (d.field != "rule", d.line, d.column))


def lint_pattern(pattern: str) -> list[Diagnostic]:
    """The pattern's compile error, if any (``field="pattern"``)."""
    error = compile_pattern(pattern).error
    return [error] if error is not None else []


def lint_rule_set(
    rules: Iterable[RuleSpec | Mapping[str, object]],
) -> dict[int, list[Diagnostic]]:
    """Diagnostics per rule index, only for rules that have any."""
    report: dict[int, list[Diagnostic]] = {}
    for index, item in enumerate(rules):
        spec = item if isinstance(item, RuleSpec) else RuleSpec.from_mapping(item)
        found = lint(spec.rule, pattern=spec.pattern)
        if found:
            report[index] = found
    return report


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)


def _groups(count: int) -> str:
    if count == 0:
        return "no capture group"
    return f"only {count} capture group{'s' if count > 1 else ''}"


def _literal(call: Call, position: int) -> tuple[str, Concat] | None:
    if position >= len(call.args):
        return None
    arg = call.args[position]
    value = arg.literal_value()
    return None if value is None else (value, arg)


def _check_call(call: Call) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    name = call.name
    for position in _INTEGER_ARGS.get(name, ()):
        found.extend(_check_format(call, position, _INTEGER, "an integer"))
    for position in _NUMBER_ARGS.get(name, ()):
        found.extend(_check_format(call, position, _NUMBER, "a number"))
    if name in _HEADER_ARGS and (literal := _literal(call, 0)):
        value, arg = literal
        if not HEADER_NAME.fullmatch(value.strip()):
            found.append(
                arg.span.diagnostic(codes.BAD_HEADER, f"{value!r} is not a valid header name")
            )
    if name == "REDIRECT" and (literal := _literal(call, 1)):
        value, arg = literal
        if value.strip() not in {str(status) for status in REDIRECT_STATUSES}:
            found.append(
                arg.span.diagnostic(
                    codes.REDIRECT_STATUS, f"$REDIRECT status must be 301 or 302, not {value!r}"
                )
            )
    if name == "EXIT" and (literal := _literal(call, 0)):
        value, arg = literal
        if not (_INTEGER.fullmatch(value) and int(value) in EXIT_STATUS_RANGE):
            found.append(
                arg.span.diagnostic(
                    codes.EXIT_STATUS, f"$EXIT status must be from 200 to 599, not {value!r}"
                )
            )
    if name in ("MATCH", "CAPTURE"):
        found.extend(_check_regex(call))
    if name == "DEL_RSP_HEADER" and (literal := _literal(call, 0)):
        value, arg = literal
        if value.strip().lower() in PROTECTED_RESPONSE_HEADERS:
            found.append(
                arg.span.diagnostic(
                    codes.PROTECTED_HEADER,
                    f"{value.strip()} is kept by the edge: $DEL_RSP_HEADER cannot remove it",
                    severity="warning",
                )
            )
    if name in ("DIVIDE", "MOD") and (literal := _literal(call, 1)):
        value, arg = literal
        if _NUMBER.fullmatch(value) and float(value) == 0:
            found.append(
                arg.span.diagnostic(codes.DIVISION_BY_ZERO, f"${name}: E2 may not be zero")
            )
    if name == "SET_METHOD" and (literal := _literal(call, 0)):
        value, arg = literal
        if value.strip().upper() not in METHODS:
            found.append(
                arg.span.diagnostic(
                    codes.BAD_METHOD, f"$SET_METHOD: {value!r} is not one of {', '.join(METHODS)}"
                )
            )
    if name in ("LIMIT_RATE_AFTER", "LIMIT_RATE") and (literal := _literal(call, 1)):
        value, arg = literal
        if value.strip().lower() not in RATE_UNITS:
            found.append(
                arg.span.diagnostic(
                    codes.RATE_LIMIT, f"${name} unit must be k or m, not {value!r}"
                )
            )
    return found


def _check_format(call: Call, position: int, shape: re.Pattern[str], what: str) -> list[Diagnostic]:
    literal = _literal(call, position)
    if literal is None:
        return []
    value, arg = literal
    if value.strip() == "" and (call.name, position) in _EMPTY_ALLOWED:
        return []
    if shape.fullmatch(value):
        return []
    return [
        arg.span.diagnostic(
            codes.BAD_ARGUMENT,
            f"${call.name} argument {position + 1} must be {what}, not {value!r}",
        )
    ]


def _check_regex(call: Call) -> list[Diagnostic]:
    literal = _literal(call, 1)
    if literal is None or (call.name == "CAPTURE" and literal[0] == ""):
        return []
    value, arg = literal
    try:
        compile_regex(value, False)
    except regex.error as error:
        return [
            arg.span.diagnostic(
                codes.BAD_REGEX, f"${call.name} pattern does not compile: {error}"
            )
        ]
    return []
