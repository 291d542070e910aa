"""The vocabulary of the rewrite language: which functions and variables exist.

The tables of content-delivery.md are the reference (DECISIONS.md, "Content delivery"): a name
they do not list is an unknown name and a syntax error. Each function's minimum arity is the
number of parameters its table row shows; ``E1,...`` counts one and ``...`` counts none.
Parameters the spec describes as possibly empty (``$RANDI``'s E2, ``$MATCH``'s E3,
``$ADD_RSP_HEADER``'s E3) are still required: pass an empty argument, as in ``$RANDI(10,)``.
``$LIMIT_RATE_AFTER`` and ``$LIMIT_RATE`` come from the spec's example and take (n, unit).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Final

FUNCTION_ARITY: Final[dict[str, int]] = {
    "WHEN": 1,
    "NOT": 1,
    "ALL": 0,
    "ANY": 0,
    "OR": 0,
    "SELECT": 3,
    "ENCODE_BASE64": 1,
    "DECODE_BASE64": 1,
    "MD5": 1,
    "SUB": 3,
    "GT": 2,
    "GE": 2,
    "EQ": 2,
    "UPPER": 1,
    "LOWER": 1,
    "MATCH": 3,
    "PCALL": 1,
    "ADD_REQ_HEADER": 2,
    "DEL_REQ_HEADER": 1,
    "ADD_RSP_HEADER": 3,
    "DEL_RSP_HEADER": 1,
    "DEL_ARG": 1,
    "REDIRECT": 2,
    "EXIT": 2,
    "RANDI": 2,
    "REDIRECT404": 1,
    "LIMIT_RATE_AFTER": 2,
    "LIMIT_RATE": 2,
}

# Functions taking any number of arguments: nothing is "extra" for them.
VARIADIC: Final[frozenset[str]] = frozenset({"WHEN", "ALL", "ANY", "OR"})

SIMPLE_VARIABLES: Final[frozenset[str]] = frozenset(
    {"HOST", "URI", "QUERY", "METHOD", "SCHEME", "TIME", "RANDOM"}
)
# ``$_HOST_n`` / ``$_RANDOM_n``: a number follows the prefix.
INDEXED_PREFIXES: Final[tuple[str, ...]] = ("HOST_", "RANDOM_")
# ``$_GET_name`` and friends: a name follows the prefix.
NAMED_PREFIXES: Final[tuple[str, ...]] = ("GET_", "POST_", "HEADER_", "COOKIE_")

RANDOM_DEFAULT_LENGTH: Final = 8
RANDOM_MIN_LENGTH: Final = 1
RANDOM_MAX_LENGTH: Final = 32

_ALL_VARIABLE_SPELLINGS: Final[tuple[str, ...]] = (
    *sorted(SIMPLE_VARIABLES),
    "HOST_1",
    "RANDOM_8",
    *(prefix + "name" for prefix in NAMED_PREFIXES),
)


@dataclass(frozen=True, slots=True)
class VariableName:
    """A recognised variable: ``kind`` is the table row, ``key`` its name or number part."""

    kind: str
    key: str = ""


class UnknownVariable(ValueError):
    """The text after ``$_`` names no variable of the table."""


def classify_variable(name: str) -> VariableName:
    """Map the text after ``$_`` to a table row, or raise :class:`UnknownVariable`.

    Range checks on the number of ``$_HOST_n`` / ``$_RANDOM_n`` are left to the parser, which
    reports them with their own error codes.
    """
    if name in SIMPLE_VARIABLES:
        return VariableName(name)
    for prefix in INDEXED_PREFIXES:
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            return VariableName(prefix[:-1] + "_N", name[len(prefix) :])
    for prefix in NAMED_PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix):
            return VariableName(prefix[:-1], name[len(prefix) :])
    raise UnknownVariable(name)


def suggest_function(name: str) -> str | None:
    """Closest known function name, to turn a typo into a helpful message."""
    matches = difflib.get_close_matches(name.upper(), FUNCTION_ARITY.keys(), n=1, cutoff=0.6)
    return matches[0] if matches else None


def suggest_variable(name: str) -> str | None:
    """Closest known variable spelling (``name`` without its ``$_``)."""
    upper = name.upper()
    for prefix in NAMED_PREFIXES:
        if upper.startswith(prefix) and len(name) > len(prefix):
            return prefix + name[len(prefix) :]
    matches = difflib.get_close_matches(upper, _ALL_VARIABLE_SPELLINGS, n=1, cutoff=0.6)
    return matches[0] if matches else None
