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
    __slots__ = ("captures", "ctx", "effects", "match")

    def __init__(self, ctx: RequestContext, match: GroupSource) -> None:
        self.ctx = ctx
        self.match = match
        self.effects: list[Effect] = []
        # ``$CAPTURE`` number -> its groups (``None`` for a group that did not take part).
        self.captures: dict[int, tuple[str | None, ...]] = {}


class BinaryText(str):
    """A value holding bytes (``$MD5_BIN``), one character per byte (Latin-1). Functions that
    turn text into bytes (``$ENCODE_BASE64``, ``$ESCAPE``, ``$MD5``) use those bytes as they
    are rather than UTF-8, so ``$ENCODE_BASE64($MD5_BIN(E))`` is the Base64 of the digest.
    Concatenated with other text it becomes ordinary text."""

    __slots__ = ()


def to_bytes(value: str) -> bytes:
    """The bytes a value stands for: Latin-1 for binary values, UTF-8 otherwise."""
    return value.encode("latin-1") if isinstance(value, BinaryText) else value.encode("utf-8")


Evaluator = Callable[[Frame], str]
