"""The state one rule evaluation works on: the request, the pattern match and the effects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from edgerules.context import RequestContext
from edgerules.effects import Effect

TRUE = "true"
FALSE = ""


def truthy(value: str) -> bool:
    """Truthiness of the language: the empty string is false, every other string is true.

    Values are always strings. Boolean functions return ``"true"`` or ``""``, so ``$NOT``,
    ``$ALL``... compose; the strings ``"0"`` and ``"false"`` are therefore *true*.
    """
    return value != ""


class GroupSource(Protocol):
    """Anything with ``group(n)`` like a ``regex.Match``: where ``$N`` values come from."""

    def group(self, index: int, /) -> str | None: ...


class NoMatch:
    """Stands in for the match when a rule is evaluated without a pattern: no group exists."""

    def group(self, index: int, /) -> str | None:
        raise IndexError(index)


NO_MATCH = NoMatch()


class Frame:
    __slots__ = ("ctx", "effects", "match")

    def __init__(self, ctx: RequestContext, match: GroupSource) -> None:
        self.ctx = ctx
        self.match = match
        self.effects: list[Effect] = []


Evaluator = Callable[[Frame], str]
