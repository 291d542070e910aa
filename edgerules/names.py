"""The vocabulary of the rewrite language: which functions and variables exist.

The language is the provider's whole public page (cdn/edgerules.md), of which the table of
content-delivery.md shows a part; where they differ, content-delivery.md wins (DECISIONS.md,
"Content delivery"): ``$MATCH`` takes the optional E3, ``$RANDI`` is in [E1, E2]. A name neither
lists is an unknown name and a syntax error. :data:`FUNCTIONS` is the one table of every
function's parameters and :data:`VARIABLES` of every variable; the parser, the evaluator's
defaults, the linter, the editor's reference and the tester all read them.

Which parameters may be left out is DECISIONS.md's last "Content delivery" entry: the
provider's documented examples are normative, and they write ``$MATCH($_URI, '^/foo/.*')``,
``$EXIT(403)`` and ``$ADD_RSP_HEADER(X-Foo, bar)``. So ``$MATCH`` E3, ``$ADD_RSP_HEADER`` E3,
``$RANDI`` E2 and ``$EXIT`` E2 are optional (the table's own wording: "non-empty E3", "if E2
empty", and an empty body); a left-out argument is the empty string. Every other parameter is
required, and fewer arguments is a syntax error naming the missing parameter. The page itself
marks two more as optional ("可选"): ``$INT`` E2 and E3 (the bases, 10 when left out) and
``$STRF_TIME`` E2 (the separator). ``$LIMIT_RATE_AFTER`` and ``$LIMIT_RATE`` take (E1, E2): an
amount and its unit, ``k`` or ``m``.
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
_AMOUNT, _UNIT = _p("E1", "amount"), _p("E2", "unit: k or m")
_NUMBER_1, _NUMBER_2 = _p("E1", "number"), _p("E2", "number")

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
        # The rest of the public page (cdn/edgerules.md).
        _sig("CAPTURE", _p("E1", "text"), _p("E2", "pattern"), _p("E3", "ignore-case flag")),
        _sig("SET_METHOD", _p("E", "method")),
        _sig("SET_BODY", _p("E", "body")),
        _sig("ADD", _NUMBER_1, _NUMBER_2),
        _sig("MOD", _NUMBER_1, _p("E2", "non-zero number")),
        _sig("MSUB", _NUMBER_1, _NUMBER_2),
        _sig("MULTIPLY", _NUMBER_1, _NUMBER_2),
        _sig("DIVIDE", _NUMBER_1, _p("E2", "non-zero number")),
        _sig("BYTE", _p("E", "character")),
        _sig("FLOOR", _p("E", "number")),
        _sig("CEIL", _p("E", "number")),
        _sig(
            "GSUB",
            _p("E1", "text"),
            _p("E2", "text to replace"),
            _p("E3", "replacement"),
            _p("N", "how many, empty or negative for all"),
        ),
        _sig("LEN", _TEXT),
        _sig("ESCAPE", _TEXT),
        _sig("UNESCAPE", _TEXT),
        _sig("MD5_BIN", _TEXT),
        _sig(
            "UNIXT",
            _p("y", "year"),
            _p("m", "month"),
            _p("d", "day"),
            _p("h", "hour"),
            _p("min", "minute"),
            _p("sec", "second"),
        ),
        _sig(
            "INT",
            _p("E1", "number"),
            _p("E2", "base of E1", optional=True),
            _p("E3", "base of the result", optional=True),
        ),
        _sig("STRF_TIME", _p("E1", "UNIX time"), _p("E2", "separator", optional=True)),
    )
}

# Response headers the edge keeps whatever a rule says: ``$DEL_RSP_HEADER`` cannot remove them
# (DECISIONS.md and the public page, whose second list adds Content-Range).
PROTECTED_RESPONSE_HEADERS: Final[frozenset[str]] = frozenset(
    {
        "via",
        "age",
        "server",
        "connection",
        "x-cache",
        "x-request-id",
        "x-source",
        "content-length",
        "content-range",
        "transfer-encoding",
    }
)
# ``$SET_METHOD``'s values (the page); a request with a body may only become PUT or POST.
METHODS: Final[tuple[str, ...]] = ("GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS", "PATCH")
BODY_METHODS: Final[frozenset[str]] = frozenset({"PUT", "POST"})
# ``$_BODY`` is the request body's first 16 KB (the page).
BODY_LIMIT: Final = 16 * 1024

SIMPLE_VARIABLES: Final[frozenset[str]] = frozenset(
    {"HOST", "URI", "QUERY", "METHOD", "SCHEME", "TIME", "RANDOM", "IP", "BODY",
     "GEOIP_COUNTRY_CODE"}
)
# ``$_HOST_n`` / ``$_RANDOM_n``: a number follows the prefix.
INDEXED_PREFIXES: Final[tuple[str, ...]] = ("HOST_", "RANDOM_")
# ``$_GET_name`` and friends: a name follows the prefix.
NAMED_PREFIXES: Final[tuple[str, ...]] = ("GET_", "POST_", "HEADER_", "COOKIE_")

RANDOM_DEFAULT_LENGTH: Final = 8
RANDOM_MIN_LENGTH: Final = 1
RANDOM_MAX_LENGTH: Final = 32


@dataclass(frozen=True, slots=True)
class VariableEntry:
    """One row of the page's variable table: how it is written, and its key (the kind)."""

    spelling: str
    kind: str


# Every variable, in the page's order, for the editor's reference (its meaning is translated
# by the back-office under ``kind``).
VARIABLES: Final[tuple[VariableEntry, ...]] = (
    VariableEntry("$_IP", "IP"),
    VariableEntry("$_HOST", "HOST"),
    VariableEntry("$_HOST_n", "HOST_N"),
    VariableEntry("$_GET_name", "GET"),
    VariableEntry("$_POST_name", "POST"),
    VariableEntry("$_HEADER_name", "HEADER"),
    VariableEntry("$_COOKIE_name", "COOKIE"),
    VariableEntry("$_RANDOM", "RANDOM"),
    VariableEntry("$_RANDOM_n", "RANDOM_N"),
    VariableEntry("$_URI", "URI"),
    VariableEntry("$_QUERY", "QUERY"),
    VariableEntry("$_METHOD", "METHOD"),
    VariableEntry("$_SCHEME", "SCHEME"),
    VariableEntry("$_TIME", "TIME"),
    VariableEntry("$_BODY", "BODY"),
    VariableEntry("$_GEOIP_COUNTRY_CODE", "GEOIP_COUNTRY_CODE"),
    VariableEntry("$n", "GROUP"),
    VariableEntry("$n.m", "CAPTURE"),
)

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
