"""Functions acting on the request or response: headers, arguments, redirects, exits, limits.

All return the empty string, so they can sit anywhere in a rule without changing its URL.
Header names must be HTTP tokens and values may not contain CR, LF or NUL: a rule cannot
inject headers, whatever the request carries. ``$REDIRECT`` takes 301 or 302 only; ``$EXIT``
takes a status from 200 to 599 (a 1xx cannot end a request) and an optional body, empty when
left out (``$EXIT(403)``); ``$ADD_RSP_HEADER``'s optional third argument, when non-empty,
replaces an existing header instead of adding one. ``$REDIRECT`` uses its target as
written: the original query is appended only to URL rewrites, as the spec states.
``$LIMIT_RATE_AFTER(n, unit)`` / ``$LIMIT_RATE(n, unit)``: ``n`` a non-negative integer, ``unit``
``k``, ``m`` or ``g`` (KiB, MiB, GiB; any case) or empty for bytes; the outcome records bytes
and bytes per second. When several rules set the same limit or 404 target, the last one wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from edgerules import diagnostics as codes
from edgerules import effects
from edgerules.effects import EndRuleSet, Exit, HeaderChange, Redirect
from edgerules.frame import Frame
from edgerules.functions.common import Builder, eager, fail, to_integer
from edgerules.source import Span

HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_UNSAFE = re.compile(r"[\r\n\x00]")
REDIRECT_STATUSES = frozenset({301, 302})
EXIT_STATUS_RANGE = range(200, 600)
RATE_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


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
    frame.effects.append((effects.RESPONSE_HEADER, HeaderChange("delete", name)))
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
            f"${function}: expected a non-negative amount and a unit k, m or g, "
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
}
