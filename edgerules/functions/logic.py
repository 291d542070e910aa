"""Conditions and control: ``$WHEN $NOT $ALL $ANY $OR $SELECT $PCALL``.

``$WHEN``, ``$ALL`` and ``$ANY`` short-circuit as the spec says. ``$OR`` stops at the first true
value and ``$SELECT`` evaluates only the branch it picks: evaluating the other branch could run
a ``$REDIRECT`` or ``$EXIT`` the rule author meant to avoid. ``$ALL()`` and ``$ANY()`` without
arguments are both false (the public page: ``$WHEN($ALL(), $EXIT(403))`` does not answer
403). ``$PCALL`` catches evaluation failures (missing variable, bad number...) and undoes
the effects made inside it; it does not catch a false ``$WHEN`` (that is the rule stopping,
not a failure) nor ``$REDIRECT``/``$EXIT``.
"""

from __future__ import annotations

from collections.abc import Sequence

from edgerules.diagnostics import EvalError
from edgerules.effects import RuleStopped
from edgerules.frame import FALSE, TRUE, Evaluator, Frame
from edgerules.functions.common import Builder, evaluate_all
from edgerules.nodes import Call


def build_when(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    conditions = tuple(args)
    line, column = call.name_span.line, call.name_span.column

    def evaluate(frame: Frame) -> str:
        for condition in conditions:
            if condition(frame) == "":
                raise RuleStopped(line, column)
        return ""

    return evaluate


def build_not(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    operand, extras = args[0], tuple(args[1:])
    if not extras:
        return lambda frame: FALSE if operand(frame) else TRUE

    def evaluate(frame: Frame) -> str:
        value = operand(frame)
        evaluate_all(frame, extras)
        return FALSE if value else TRUE

    return evaluate


def build_all(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    conditions = tuple(args)
    if not conditions:
        return lambda frame: FALSE

    def evaluate(frame: Frame) -> str:
        for condition in conditions:
            if condition(frame) == "":
                return FALSE
        return TRUE

    return evaluate


def build_any(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    conditions = tuple(args)

    def evaluate(frame: Frame) -> str:
        for condition in conditions:
            if condition(frame) != "":
                return TRUE
        return FALSE

    return evaluate


def build_or(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    candidates = tuple(args)

    def evaluate(frame: Frame) -> str:
        for candidate in candidates:
            value = candidate(frame)
            if value != "":
                return value
        return ""

    return evaluate


def build_select(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    condition, when_true, when_false = args[0], args[1], args[2]
    extras = tuple(args[3:])

    def evaluate(frame: Frame) -> str:
        value = when_true(frame) if condition(frame) != "" else when_false(frame)
        evaluate_all(frame, extras)
        return value

    return evaluate


def build_pcall(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    protected, extras = args[0], tuple(args[1:])

    def evaluate(frame: Frame) -> str:
        mark = len(frame.effects)
        try:
            value = protected(frame)
        except EvalError:
            del frame.effects[mark:]
            value = ""
        evaluate_all(frame, extras)
        return value

    return evaluate


BUILDERS: dict[str, Builder] = {
    "WHEN": build_when,
    "NOT": build_not,
    "ALL": build_all,
    "ANY": build_any,
    "OR": build_or,
    "SELECT": build_select,
    "PCALL": build_pcall,
}
