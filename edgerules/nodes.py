"""The syntax tree of one rule. Every node keeps its :class:`~edgerules.source.Span`.

A rule is a :class:`Concat` of pieces written next to each other, plus two trailing markers:
``?`` (do not append the original query) and ``$$`` (break). Function arguments are
:class:`Concat` nodes too, since ``$EQ($_HOST, www.'a,b'.com)`` concatenates inside an argument.
"""

from __future__ import annotations

from dataclasses import dataclass

from edgerules.diagnostics import Diagnostic
from edgerules.source import Span


@dataclass(frozen=True, slots=True)
class Literal:
    """Fixed text: a plain run (escapes resolved, whitespace dropped) or a quoted string."""

    value: str
    span: Span
    quoted: bool = False


@dataclass(frozen=True, slots=True)
class Variable:
    """``$_NAME``: ``kind`` is the table row (``GET``, ``HOST_N``...), ``key`` its name/number."""

    kind: str
    key: str
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class Group:
    """``$N``: the N-th capture group of the rule's pattern (``$0`` is the whole match)."""

    index: int
    span: Span


@dataclass(frozen=True, slots=True)
class CaptureRef:
    """``$n.m``: group ``m`` of the ``n``-th ``$CAPTURE`` call of the rule (cdn/edgerules.md)."""

    ordinal: int
    index: int
    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class Call:
    """``$NAME(arg, ...)``. ``span`` covers the whole call, ``name_span`` just ``$NAME``."""

    name: str
    args: tuple[Concat, ...]
    span: Span
    name_span: Span
    ordinal: int = 0  # for ``$CAPTURE``: its place among the rule's captures, from 1


Expr = Literal | Variable | Group | CaptureRef | Call


@dataclass(frozen=True, slots=True)
class Concat:
    """Pieces whose values are joined: a whole rule body or one function argument."""

    parts: tuple[Expr, ...]
    span: Span

    def literal_value(self) -> str | None:
        """The fixed value when every piece is literal text, else ``None`` (used by the linter)."""
        values: list[str] = []
        for part in self.parts:
            if not isinstance(part, Literal):
                return None
            values.append(part.value)
        return "".join(values)


@dataclass(frozen=True, slots=True)
class Rule:
    """A parsed rule.

    ``append_query`` is false when the rule ends with the ``?`` marker; ``breaks`` is true when
    it ends with ``$$``. ``warnings`` holds non-fatal findings (extra arguments).
    """

    source: str
    body: Concat
    append_query: bool
    breaks: bool
    warnings: tuple[Diagnostic, ...] = ()


def walk(node: Concat | Expr) -> list[Expr]:
    """Every expression inside ``node``, depth first, calls before their arguments."""
    found: list[Expr] = []
    stack: list[Concat | Expr] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Concat):
            stack.extend(reversed(current.parts))
            continue
        found.append(current)
        if isinstance(current, Call):
            stack.extend(reversed(current.args))
    return found
