"""Functions acting on the request or response: headers, arguments, redirects, exits, limits.

All return the empty string, so they can sit anywhere in a rule without changing its URL.
Header names must be HTTP tokens and values may not contain CR, LF or NUL: a rule cannot
inject headers, whatever the request carries. ``$REDIRECT`` takes 301 or 302 only; ``$EXIT``
takes a status from 200 to 599 (a 1xx cannot end a request) and an optional body, empty when
left out (``$EXIT(403)``); ``$ADD_RSP_HEADER``'s optional third argument, when non-empty,
replaces an existing header instead of adding one. ``$REDIRECT`` uses its target as
written: the original query is appended only to URL rewrites, as the spec states.
``$LIMIT_RATE_AFTER(E1, E2)`` / ``$LIMIT_RATE(E1, E2)``: ``E1`` a non-negative integer, ``E2``
``k`` or ``m`` (KB = 1024 bytes, MB = 1024 KB; any case), the page's two units; the outcome
records bytes and bytes per second. When several rules set the same limit, method, body or
404 target, the last one wins.

``$DEL_RSP_HEADER`` cannot remove the edge's own headers
(:data:`~edgerules.names.PROTECTED_RESPONSE_HEADERS`): the call does nothing for them (the
linter warns). ``$SET_METHOD(E)`` takes one of the page's seven methods; on a request that
carries a body only PUT or POST (the page's note 1), anything else fails the rule
(``body-method``). ``$SET_BODY(E)`` replaces the body of a PUT or POST request (the method as
the rule left it, else the request's); on any other it fails the rule (``body-method``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from edgerules import diagnostics as codes
from edgerules import effects
from edgerules.effects import EndRuleSet, Exit, HeaderChange, Redirect
from edgerules.frame import Frame
from edgerules.functions.common import Builder, eager, fail, to_integer
from edgerules.names import BODY_METHODS, METHODS, PROTECTED_RESPONSE_HEADERS
from edgerules.source import Span

HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_UNSAFE = re.compile(r"[\r\n\x00]")
REDIRECT_STATUSES = frozenset({301, 302})
EXIT_STATUS_RANGE = range(200, 600)
RATE_UNITS = {"k": 1024, "m": 1024**2}


def _header_name(span: Span, function: str, name: str) -> str:
    name = name.strip()
    if not HEADER_NAME.fullmatch(name):
        raise fail(span, codes.BAD_HEADER, f"${function}: {name!r} is not a valid header name")
    return name


def _safe(span: Span, function: str, what: str, value: str) -> str:
    if _UNSAFE.search(value):
        raise fail(span, codes.BAD_HEADER, f"${function}: the {what} contains CR, LF or NUL")
    return value


def _add_req_header(frame: Frame, span: Span, values: Sequence[str]) -> str:
    name = _header_name(span, "ADD_REQ_HEADER", values[0])
    value = _safe(span, "ADD_REQ_HEADER", "value", values[1])
    frame.effects.append((effects.REQUEST_HEADER, HeaderChange("add", name, value)))
    return ""


def _del_req_header(frame: Frame, span: Span, values: Sequence[str]) -> str:
    name = _header_name(span, "DEL_REQ_HEADER", values[0])
    frame.effects.append((effects.REQUEST_HEADER, HeaderChange("delete", name)))
    return ""


def _add_rsp_header(frame: Frame, span: Span, values: Sequence[str]) -> str:
    name = _header_name(span, "ADD_RSP_HEADER", values[0])
    value = _safe(span, "ADD_RSP_HEADER", "value", values[1])
    action: effects.HeaderAction = "set" if values[2] != "" else "add"
    frame.effects.append((effects.RESPONSE_HEADER, HeaderChange(action, name, value)))
    return ""


def _del_rsp_header(frame: Frame, span: Span, values: Sequence[str]) -> str:
    name = _header_name(span, "DEL_RSP_HEADER", values[0])
    if name.lower() not in PROTECTED_RESPONSE_HEADERS:
        frame.effects.append((effects.RESPONSE_HEADER, HeaderChange("delete", name)))
    return ""


def _set_method(frame: Frame, span: Span, values: Sequence[str]) -> str:
    method = values[0].strip().upper()
    if method not in METHODS:
        raise fail(
            span, codes.BAD_METHOD,
            f"$SET_METHOD: {values[0]!r} is not one of {', '.join(METHODS)}",
        )
    if frame.ctx.carries_body and method not in BODY_METHODS:
        raise fail(
            span, codes.BODY_METHOD,
            f"$SET_METHOD: the request carries a body, so the method may only become PUT or "
            f"POST, not {method}",
        )
    frame.effects.append((effects.SET_METHOD, method))
    return ""


def current_method(frame: Frame) -> str:
    """The method as this rule has set it so far, else the request's."""
    for kind, payload in reversed(frame.effects):
        if kind == effects.SET_METHOD:
            return str(payload)
    return frame.ctx.method.upper()


def _set_body(frame: Frame, span: Span, values: Sequence[str]) -> str:
    method = current_method(frame)
    if method not in BODY_METHODS:
        raise fail(
            span, codes.BODY_METHOD,
            f"$SET_BODY: only a PUT or POST request has its body replaced, not {method}",
        )
    frame.effects.append((effects.SET_BODY, values[0]))
    return ""


def _del_arg(frame: Frame, span: Span, values: Sequence[str]) -> str:
    name = values[0].strip()
    if not name:
        raise fail(span, codes.BAD_ARGUMENT, "$DEL_ARG: the parameter name is empty")
    frame.effects.append((effects.DELETE_ARG, name))
    return ""


def _target(span: Span, function: str, value: str) -> str:
    target = value.strip()
    if not target:
        raise fail(span, codes.BAD_ARGUMENT, f"${function}: the target URL is empty")
    return _safe(span, function, "target URL", target)


def _redirect(frame: Frame, span: Span, values: Sequence[str]) -> str:
    location = _target(span, "REDIRECT", values[0])
    status_text = values[1].strip()
    if status_text not in ("301", "302"):
        raise fail(
            span, codes.REDIRECT_STATUS, f"$REDIRECT: status must be 301 or 302, got {values[1]!r}"
        )
    raise EndRuleSet(Redirect(location, int(status_text)))


def _exit(frame: Frame, span: Span, values: Sequence[str]) -> str:
    status = to_integer(span, "EXIT", "the status", values[0])
    if status not in EXIT_STATUS_RANGE:
        raise fail(span, codes.EXIT_STATUS, f"$EXIT: status must be 200 to 599, got {status}")
    raise EndRuleSet(Exit(status, values[1]))


def _redirect_404(frame: Frame, span: Span, values: Sequence[str]) -> str:
    frame.effects.append((effects.REDIRECT_404, _target(span, "REDIRECT404", values[0])))
    return ""


def rate_in_bytes(span: Span, function: str, amount: str, unit: str) -> int:
    count = to_integer(span, function, "the amount", amount)
    factor = RATE_UNITS.get(unit.strip().lower())
    if count < 0 or factor is None:
        raise fail(
            span,
            codes.RATE_LIMIT,
            f"${function}: expected a non-negative amount and a unit k or m, "
            f"got ({amount!r}, {unit!r})",
        )
    return count * factor


def _limit_rate_after(frame: Frame, span: Span, values: Sequence[str]) -> str:
    size = rate_in_bytes(span, "LIMIT_RATE_AFTER", values[0], values[1])
    frame.effects.append((effects.LIMIT_RATE_AFTER, size))
    return ""


def _limit_rate(frame: Frame, span: Span, values: Sequence[str]) -> str:
    rate = rate_in_bytes(span, "LIMIT_RATE", values[0], values[1])
    frame.effects.append((effects.LIMIT_RATE, rate))
    return ""


BUILDERS: dict[str, Builder] = {
    "ADD_REQ_HEADER": eager(_add_req_header),
    "DEL_REQ_HEADER": eager(_del_req_header),
    "ADD_RSP_HEADER": eager(_add_rsp_header),
    "DEL_RSP_HEADER": eager(_del_rsp_header),
    "DEL_ARG": eager(_del_arg),
    "REDIRECT": eager(_redirect),
    "EXIT": eager(_exit),
    "REDIRECT404": eager(_redirect_404),
    "LIMIT_RATE_AFTER": eager(_limit_rate_after),
    "LIMIT_RATE": eager(_limit_rate),
    "SET_METHOD": eager(_set_method),
    "SET_BODY": eager(_set_body),
}
