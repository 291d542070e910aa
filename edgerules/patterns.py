"""Rule patterns: PCRE-style regular expressions matched against the request URI.

Patterns are compiled with the ``regex`` package, whose default (version 0) syntax follows
PCRE/Perl closely: named groups ``(?<name>...)``, atomic groups, possessive quantifiers and
``\\d``-style classes all work. A match is a *search* (unanchored unless the pattern uses ``^``),
as with PCRE. An empty pattern matches every URI. No match timeout is set: the ``regex``
timeout costs about 2 microseconds per call, several times a typical match, on every request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from edgerules import diagnostics as codes
from edgerules.diagnostics import Diagnostic
from edgerules.source import SourceMap

Search = Callable[[str], "regex.Match[str] | None"]


@dataclass(frozen=True, slots=True)
class CompiledPattern:
    """``search`` is ``None`` when the pattern does not compile; ``error`` then says why."""

    source: str
    search: Search | None
    groups: int
    error: Diagnostic | None


def compile_pattern(pattern: str) -> CompiledPattern:
    try:
        compiled = regex.compile(pattern)
    except regex.error as error:
        return CompiledPattern(pattern, None, 0, pattern_diagnostic(pattern, error))
    return CompiledPattern(pattern, compiled.search, compiled.groups, None)


def pattern_diagnostic(pattern: str, error: regex.error) -> Diagnostic:
    """The compile error located in the pattern text (``field="pattern"``)."""
    # types-regex does not declare regex.error's .pos and .msg, which regex always sets.
    position = error.pos if isinstance(error.pos, int) else 0  # type: ignore[attr-defined]
    position = min(max(position, 0), len(pattern))
    span = SourceMap(pattern).span(position, min(position + 1, len(pattern)))
    return span.diagnostic(
        codes.BAD_PATTERN, f"pattern does not compile: {error.msg}",  # type: ignore[attr-defined]
        field="pattern",
    )
