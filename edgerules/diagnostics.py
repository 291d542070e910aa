"""Structured problems found in a rule: syntax errors, lint findings and evaluation failures.

Every problem is a :class:`Diagnostic` carrying a stable ``code``, a human message and a
1-based ``line``/``column`` range, so a web editor can underline the exact characters and a
test can assert on the code instead of on wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]
Field = Literal["rule", "pattern"]

# Error codes. Kept as module constants so callers (editor, tests) never spell them by hand.
UNKNOWN_FUNCTION = "unknown-function"
UNKNOWN_VARIABLE = "unknown-variable"
ARITY = "arity"
EXTRA_ARGUMENTS = "extra-arguments"
UNBALANCED_PAREN = "unbalanced-paren"
EXPECTED_PAREN = "expected-paren"
STRAY_COMMA = "stray-comma"
STRAY_DOLLAR = "stray-dollar"
BAD_ESCAPE = "bad-escape"
UNTERMINATED_STRING = "unterminated-string"
MISPLACED_BREAK = "misplaced-break"
TOO_DEEP = "too-deep"
RANDOM_LENGTH = "random-length"
HOST_INDEX = "host-index"
REDIRECT_STATUS = "redirect-status"
EXIT_STATUS = "exit-status"
BAD_REGEX = "bad-regex"
BAD_PATTERN = "bad-pattern"
UNKNOWN_GROUP = "unknown-group"
RATE_LIMIT = "rate-limit"
UNKNOWN_CAPTURE = "unknown-capture"
PROTECTED_HEADER = "protected-header"
BAD_METHOD = "bad-method"
# Codes that only occur while a rule runs against a request.
MISSING_VARIABLE = "missing-variable"
BAD_ARGUMENT = "bad-argument"
BAD_HEADER = "bad-header"
DIVISION_BY_ZERO = "division-by-zero"
BODY_METHOD = "body-method"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem, located in the rule (or pattern) text.

    ``line``/``column`` are 1-based and count characters (code points). ``end_line`` and
    ``end_column`` mark the first character *after* the problem, so an editor highlights
    ``[column, end_column)``.
    """

    code: str
    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: Severity = "error"
    field: Field = "rule"

    def as_dict(self) -> dict[str, object]:
        """Plain JSON-ready form for the web editor and the rule tester API."""
        return {
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "severity": self.severity,
            "field": self.field,
        }

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message} [{self.code}]"


class RuleSyntaxError(ValueError):
    """A rule that cannot be parsed. ``diagnostics`` lists every error found, first one first."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__(str(diagnostics[0]) if diagnostics else "syntax error")

    @property
    def first(self) -> Diagnostic:
        return self.diagnostics[0]


class EvalError(Exception):
    """A rule failed while running against a request (missing variable, bad number, ...).

    The failure stops the rule, exactly like a syntax error would, unless it happens inside
    ``$PCALL``. It is raised inside compiled closures, hence an exception and not a result.
    """

    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic
        super().__init__(str(diagnostic))
