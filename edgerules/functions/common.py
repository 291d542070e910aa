"""Shared plumbing for function builders.

A *builder* turns a parsed call and its compiled arguments into one evaluator. Arguments are
compiled closures, so a builder decides when (and whether) each is evaluated: that is how
``$WHEN``/``$ALL``/``$ANY`` short-circuit. Eager functions evaluate every argument left to
right, extra ones included (the spec: "extra arguments are evaluated but ignored").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import Decimal

from edgerules import diagnostics as codes
from edgerules.diagnostics import EvalError
from edgerules.frame import Evaluator, Frame
from edgerules.nodes import Call
from edgerules.source import Span

Builder = Callable[[Call, Sequence[Evaluator]], Evaluator]
Implementation = Callable[[Frame, Span, Sequence[str]], str]

_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def fail(span: Span, code: str, message: str) -> EvalError:
    """The error to raise when a call cannot produce a value for this request."""
    return EvalError(span.diagnostic(code, message))


def to_integer(span: Span, function: str, what: str, value: str) -> int:
    text = value.strip()
    if not _INTEGER.fullmatch(text):
        raise fail(
            span, codes.BAD_ARGUMENT, f"${function}: {what} must be an integer, got {value!r}"
        )
    return int(text)


def to_number(span: Span, function: str, value: str) -> Decimal:
    """Decimal numbers compare exactly: ``$GT(0.3, 0.1)`` never suffers float rounding."""
    text = value.strip()
    if not _NUMBER.fullmatch(text):
        raise fail(span, codes.BAD_ARGUMENT, f"${function}: {value!r} is not a number")
    return Decimal(text)


def evaluate_all(frame: Frame, evaluators: Sequence[Evaluator]) -> None:
    """Run arguments only for their effects (extra arguments, unchosen ones are not run)."""
    for evaluator in evaluators:
        evaluator(frame)


def eager(implementation: Implementation) -> Builder:
    """Builder for a function whose arguments are all evaluated before it runs.

    One- and two-argument calls get dedicated closures: they are the common case and a tuple
    comprehension per call shows up in the per-request budget.
    """

    def build(call: Call, args: Sequence[Evaluator]) -> Evaluator:
        span = call.name_span
        if len(args) == 1:
            (first,) = args
            return lambda frame: implementation(frame, span, (first(frame),))
        if len(args) == 2:
            first, second = args
            return lambda frame: implementation(frame, span, (first(frame), second(frame)))
        evaluators = tuple(args)
        return lambda frame: implementation(
            frame, span, tuple([evaluator(frame) for evaluator in evaluators])
        )

    return build
