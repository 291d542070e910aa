"""Positions in rule text: offsets become (line, column) pairs an editor understands.

Rules are edited in a multi-line text box, so every token keeps its line and column. Lines are
split on ``\\n`` only (a ``\\r`` before it is ordinary whitespace to the language); columns count
characters, both 1-based.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from edgerules.diagnostics import Diagnostic, Field, Severity


@dataclass(frozen=True, slots=True)
class Span:
    """Where a syntax-tree node sits: start inclusive, end exclusive, both 1-based."""

    line: int
    column: int
    end_line: int
    end_column: int

    def diagnostic(
        self,
        code: str,
        message: str,
        *,
        severity: Severity = "error",
        field: Field = "rule",
    ) -> Diagnostic:
        return Diagnostic(
            code, message, self.line, self.column, self.end_line, self.end_column, severity, field
        )


class SourceMap:
    """Converts character offsets of one text into line/column positions."""

    __slots__ = ("_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
        self._starts = starts

    def position(self, offset: int) -> tuple[int, int]:
        index = bisect_right(self._starts, offset) - 1
        return index + 1, offset - self._starts[index] + 1

    def offset(self, line: int, column: int) -> int:
        """The character offset of a 1-based (line, column): the inverse of :meth:`position`."""
        return self._starts[line - 1] + column - 1

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        end_line, end_column = self.position(max(end, start))
        return Span(line, column, end_line, end_column)


def excerpt(text: str, span: Span) -> str:
    """The characters of ``text`` that ``span`` covers (spans come from a map of ``text``)."""
    source = SourceMap(text)
    start = source.offset(span.line, span.column)
    return text[start : source.offset(span.end_line, span.end_column)]
