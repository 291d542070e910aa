"""Variables (``$_NAME``) and pattern groups (``$N``) compiled to evaluators.

A variable the request does not have (no such query parameter, header, cookie, form field, or
sub-domain) is *absent*. Where it is written decides what that means (DECISIONS.md, "Content
delivery", the documented examples):

- inside a function's arguments it is the empty string, so ``$NOT($_HEADER_referer)`` is true
  for a request without a Referer;
- written directly into the rule's own text (the rewritten URL) it is a *failed
  interpolation*: the evaluator raises :class:`~edgerules.diagnostics.EvalError` and the rule
  does not apply (unless inside ``$PCALL``), as content-delivery.md says.

A parameter that is present but empty (``?a=`` or ``?a``) is the empty string, never absent. A
pattern group that exists but did not take part in the match is the empty string (as in PCRE
substitution); a group number the pattern does not have is absent. ``$_SCHEME`` is lowercase
(``http``, ``https``), as the docs' example compares it; ``$_METHOD`` is uppercase.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import cast

from edgerules import diagnostics as codes
from edgerules.context import RequestContext
from edgerules.diagnostics import EvalError
from edgerules.frame import Evaluator, Frame
from edgerules.names import RANDOM_DEFAULT_LENGTH
from edgerules.nodes import CaptureRef, Group, Variable
from edgerules.probe import Probe, Reader

RANDOM_ALPHABET = string.ascii_letters + string.digits
# Variables every request has: they are never absent.
_ALWAYS_PRESENT = frozenset({"HOST", "URI", "QUERY", "METHOD", "SCHEME", "TIME", "RANDOM",
                             "RANDOM_N", "IP", "BODY"})


def host_labels(host: str) -> list[str]:
    """Sub-domains of a Host value, leftmost first, port removed."""
    if host.startswith("["):  # IPv6 literal: no sub-domains to speak of
        return [host.partition("]")[0] + "]"]
    return host.rsplit(":", 1)[0].split(".") if ":" in host else host.split(".")


def random_string(ctx: RequestContext, length: int) -> str:
    return "".join(ctx.rng.choices(RANDOM_ALPHABET, k=length))


def _lookup(read: Callable[[RequestContext, str], str | None], key: str) -> Reader:
    return lambda frame: read(frame.ctx, key)


def _present(node: Variable) -> Evaluator:
    """The evaluator of a variable every request has."""
    kind = node.kind
    if kind == "HOST":
        return lambda frame: frame.ctx.host
    if kind == "URI":
        return lambda frame: frame.ctx.uri
    if kind == "QUERY":
        return lambda frame: frame.ctx.query
    if kind == "METHOD":
        return lambda frame: frame.ctx.method.upper()
    if kind == "SCHEME":
        return lambda frame: frame.ctx.scheme.lower()
    if kind == "TIME":
        return lambda frame: str(int(frame.ctx.time))
    if kind == "RANDOM":
        return lambda frame: random_string(frame.ctx, RANDOM_DEFAULT_LENGTH)
    if kind == "IP":
        return lambda frame: frame.ctx.ip
    if kind == "BODY":
        return lambda frame: frame.ctx.body
    length = int(node.key)  # RANDOM_N
    return lambda frame: random_string(frame.ctx, length)


def _reader(node: Variable) -> tuple[Reader, str]:
    """The reader of a variable that may be absent (``None``), and what is then missing."""
    kind, key = node.kind, node.key
    if kind == "HOST_N":
        index = int(key) - 1

        def label(frame: Frame) -> str | None:
            labels = host_labels(frame.ctx.host)
            return labels[index] if 0 <= index < len(labels) else None

        return label, f"sub-domain number {index + 1}"
    if kind == "GET":
        return _lookup(RequestContext.query_arg, key), f"query parameter '{key}'"
    if kind == "POST":
        return _lookup(RequestContext.form_field, key), f"www-form field '{key}'"
    if kind == "HEADER":
        return _lookup(RequestContext.header, key), f"header '{key}'"
    if kind == "COOKIE":
        return _lookup(RequestContext.cookie, key), f"cookie '{key}'"
    if kind == "GEOIP_COUNTRY_CODE":
        return (lambda frame: frame.ctx.country()), "known country for its address"
    raise ValueError(f"variable kind {kind!r} has no evaluator")  # parser guarantees otherwise


def compile_variable(
    node: Variable, *, in_argument: bool = False, probe: Probe | None = None
) -> Evaluator:
    """``in_argument``: the variable sits inside a function's arguments (absent = empty)."""
    if node.kind in _ALWAYS_PRESENT:
        present = _present(node)
        if probe is None:
            return present
        return cast(Evaluator, probe.variable(node, present))
    reader, what = _reader(node)
    if probe is not None:
        reader = probe.variable(node, reader)
    if in_argument:

        def empty_when_absent(frame: Frame) -> str:
            value = reader(frame)
            return "" if value is None else value

        return empty_when_absent
    span, text = node.span, node.text

    def required(frame: Frame) -> str:
        value = reader(frame)
        if value is None:
            raise EvalError(
                span.diagnostic(
                    codes.MISSING_VARIABLE, f"`{text}` is absent: the request has no {what}"
                )
            )
        return value

    return required


def compile_group(node: Group, *, in_argument: bool = False) -> Evaluator:
    index, span = node.index, node.span

    def evaluate(frame: Frame) -> str:
        try:
            value = frame.match.group(index)
        except IndexError:
            if in_argument:
                return ""
            raise EvalError(
                span.diagnostic(codes.UNKNOWN_GROUP, f"the pattern has no group ${index}")
            ) from None
        return value or ""

    return evaluate


def compile_capture_ref(node: CaptureRef, *, in_argument: bool = False) -> Evaluator:
    """``$n.m``: group ``m`` of the ``n``-th ``$CAPTURE`` of the rule. Absent until that
    ``$CAPTURE`` has run and matched, or when its pattern has no group ``m``."""
    ordinal, index, span, text = node.ordinal, node.index, node.span, node.text

    def evaluate(frame: Frame) -> str:
        groups = frame.captures.get(ordinal)
        value = groups[index] if groups is not None and index < len(groups) else None
        if value is not None:
            return value
        if in_argument:
            return ""
        raise EvalError(
            span.diagnostic(
                codes.MISSING_VARIABLE,
                f"`{text}` is absent: $CAPTURE number {ordinal} did not capture group {index}",
            )
        )

    return evaluate
