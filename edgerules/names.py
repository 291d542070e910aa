"""The vocabulary of the rewrite language: which functions and variables exist.

The tables of content-delivery.md are the reference (DECISIONS.md, "Content delivery"): a name
they do not list is an unknown name and a syntax error. :data:`FUNCTIONS` is the one table of
every function's parameters; the parser's arity check, the evaluator's defaults and the
editor's function reference all read it.

Which parameters may be left out is DECISIONS.md's last "Content delivery" entry: the
provider's documented examples are normative, and they write ``$MATCH($_URI, '^/foo/.*')``,
``$EXIT(403)`` and ``$ADD_RSP_HEADER(X-Foo, bar)``. So ``$MATCH`` E3, ``$ADD_RSP_HEADER`` E3,
``$RANDI`` E2 and ``$EXIT`` E2 are optional (the table's own wording: "non-empty E3", "if E2
empty", and an empty body); a left-out argument is the empty string. Every other parameter is
required, and fewer arguments is a syntax error naming the missing parameter.
``$LIMIT_RATE_AFTER`` and ``$LIMIT_RATE`` come from the spec's example and take (n, unit).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a function: ``name`` as the spec's table writes it (``E1``, ``from``),
    ``role`` in a few English words for messages, ``optional`` when it may be left out."""

    name: str
    role: str
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Signature:
    """A function's parameters, in order; ``variadic`` functions take any number more."""

    name: str
    parameters: tuple[Parameter, ...]
    variadic: bool = False

    @property
    def required(self) -> int:
        """How many arguments must be written (optional parameters are always the last)."""
        return sum(1 for parameter in self.parameters if not parameter.optional)

    @property
    def accepted(self) -> int | None:
        """How many arguments are used; ``None`` when any number is."""
        return None if self.variadic else len(self.parameters)

    def usage(self) -> str:
        """``$MATCH(E1, E2[, E3])``: optional parameters in brackets, ``...`` when variadic."""
        text = ""
        for index, parameter in enumerate(self.parameters):
            separator = ", " if index else ""
            text += f"[{separator}{parameter.name}]" if parameter.optional else (
                separator + parameter.name
            )
        if self.variadic:
            text += ", ..." if self.parameters else "..."
        return f"${self.name}({text})"


def _p(name: str, role: str, *, optional: bool = False) -> Parameter:
    return Parameter(name, role, optional)


def _sig(name: str, *parameters: Parameter, variadic: bool = False) -> Signature:
    if any(
        earlier.optional and not later.optional
        for earlier, later in zip(parameters, parameters[1:], strict=False)
    ):
        raise ValueError(f"${name}: an optional parameter must not precede a required one")
    return Signature(name, parameters, variadic)


_TEXT = _p("E", "text")
_CONDITION = _p("E1", "condition")
_HEADER = _p("E1", "header name")
_AMOUNT, _UNIT = _p("n", "amount"), _p("unit", "unit: k, m, g or empty")

FUNCTIONS: Final[dict[str, Signature]] = {
    signature.name: signature
    for signature in (
        _sig("WHEN", _CONDITION, variadic=True),
        _sig("NOT", _p("E", "condition")),
        _sig("ALL", variadic=True),
        _sig("ANY", variadic=True),
        _sig("OR", variadic=True),
        _sig("SELECT", _CONDITION, _p("E2", "value if true"), _p("E3", "value if false")),
        _sig("ENCODE_BASE64", _TEXT),
        _sig("DECODE_BASE64", _TEXT),
        _sig("MD5", _TEXT),
        _sig("SUB", _p("E1", "text"), _p("from", "first position"), _p("to", "last position")),
        _sig("GT", _p("E1", "number"), _p("E2", "number")),
        _sig("GE", _p("E1", "number"), _p("E2", "number")),
        _sig("EQ", _p("E1", "text"), _p("E2", "text")),
        _sig("UPPER", _TEXT),
        _sig("LOWER", _TEXT),
        _sig(
            "MATCH",
            _p("E1", "text"),
            _p("E2", "pattern"),
            _p("E3", "ignore-case flag", optional=True),
        ),
        _sig("PCALL", _p("E", "expression")),
        _sig("ADD_REQ_HEADER", _HEADER, _p("E2", "value")),
        _sig("DEL_REQ_HEADER", _HEADER),
        _sig(
            "ADD_RSP_HEADER",
            _HEADER,
            _p("E2", "value"),
            _p("E3", "overwrite flag", optional=True),
        ),
        _sig("DEL_RSP_HEADER", _HEADER),
        _sig("DEL_ARG", _p("E1", "parameter name")),
        _sig("REDIRECT", _p("E1", "target URL"), _p("E2", "status: 301 or 302")),
        _sig("EXIT", _p("E1", "status"), _p("E2", "body", optional=True)),
        _sig("RANDI", _p("E1", "bound"), _p("E2", "upper bound", optional=True)),
        _sig("REDIRECT404", _p("E1", "target URL")),
        _sig("LIMIT_RATE_AFTER", _AMOUNT, _UNIT),
        _sig("LIMIT_RATE", _AMOUNT, _UNIT),
    )
}

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
    matches = difflib.get_close_matches(name.upper(), FUNCTIONS.keys(), n=1, cutoff=0.6)
    return matches[0] if matches else None


def suggest_variable(name: str) -> str | None:
    """Closest known variable spelling (``name`` without its ``$_``)."""
    upper = name.upper()
    for prefix in NAMED_PREFIXES:
        if upper.startswith(prefix) and len(name) > len(prefix):
            return prefix + name[len(prefix) :]
    matches = difflib.get_close_matches(upper, _ALL_VARIABLE_SPELLINGS, n=1, cutoff=0.6)
    return matches[0] if matches else None
