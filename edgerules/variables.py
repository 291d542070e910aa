"""Variables (``$_NAME``) and pattern groups (``$N``) compiled to evaluators.

A variable that the request does not have (no such query parameter, header, cookie, form
field, or sub-domain) is a *failed interpolation*: the evaluator raises
:class:`~edgerules.diagnostics.EvalError` and the rule does not apply (unless inside
``$PCALL``). A parameter that is present but empty (``?a=`` or ``?a``) is the empty string, not
a failure. A pattern group that exists but did not take part in the match is the empty string
(as in PCRE substitution); a group number the pattern does not have is a failure.
"""

from __future__ import annotations

import string
from collections.abc import Callable

from edgerules import diagnostics as codes
from edgerules.context import RequestContext
from edgerules.diagnostics import EvalError
from edgerules.frame import Evaluator, Frame
from edgerules.names import RANDOM_DEFAULT_LENGTH
from edgerules.nodes import Group, Variable
from edgerules.source import Span

RANDOM_ALPHABET = string.ascii_letters + string.digits


def _missing(span: Span, text: str, what: str) -> EvalError:
    return EvalError(span.diagnostic(codes.MISSING_VARIABLE, f"{text}: the request has no {what}"))


def host_labels(host: str) -> list[str]:
    """Sub-domains of a Host value, leftmost first, port removed."""
    if host.startswith("["):  # IPv6 literal: no sub-domains to speak of
        return [host.partition("]")[0] + "]"]
    return host.rsplit(":", 1)[0].split(".") if ":" in host else host.split(".")


def random_string(ctx: RequestContext, length: int) -> str:
    return "".join(ctx.rng.choices(RANDOM_ALPHABET, k=length))


def _lookup(
    node: Variable, read: Callable[[RequestContext, str], str | None], what: str
) -> Evaluator:
    key, span, text = node.key, node.span, node.text
    description = f"{what} '{key}'"

    def evaluate(frame: Frame) -> str:
        value = read(frame.ctx, key)
        if value is None:
            raise _missing(span, text, description)
        return value

    return evaluate


def compile_variable(node: Variable) -> Evaluator:
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
        return lambda frame: frame.ctx.scheme.upper()
    if kind == "TIME":
        return lambda frame: str(int(frame.ctx.time))
    if kind == "RANDOM":
        return lambda frame: random_string(frame.ctx, RANDOM_DEFAULT_LENGTH)
    if kind == "RANDOM_N":
        length = int(node.key)
        return lambda frame: random_string(frame.ctx, length)
    if kind == "HOST_N":
        return _host_label(node)
    if kind == "GET":
        return _lookup(node, RequestContext.query_arg, "query parameter")
    if kind == "POST":
        return _lookup(node, RequestContext.form_field, "www-form field")
    if kind == "HEADER":
        return _lookup(node, RequestContext.header, "header")
    if kind == "COOKIE":
        return _lookup(node, RequestContext.cookie, "cookie")
    raise ValueError(f"variable kind {kind!r} has no evaluator")  # parser guarantees otherwise


def _host_label(node: Variable) -> Evaluator:
    index = int(node.key) - 1
    span, text = node.span, node.text

    def evaluate(frame: Frame) -> str:
        labels = host_labels(frame.ctx.host)
        if 0 <= index < len(labels):
            return labels[index]
        raise _missing(span, text, f"sub-domain number {index + 1}")

    return evaluate


def compile_group(node: Group) -> Evaluator:
    index, span = node.index, node.span

    def evaluate(frame: Frame) -> str:
        try:
            value = frame.match.group(index)
        except IndexError:
            raise EvalError(
                span.diagnostic(codes.UNKNOWN_GROUP, f"the pattern has no group ${index}")
            ) from None
        return value or ""

    return evaluate
