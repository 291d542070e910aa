"""Syntax tree -> closures. Done once per rule, so a request costs only closure calls.

Adjacent literal pieces are merged, a fully literal rule becomes a constant, and each function
call becomes the closure its builder returns (see :mod:`edgerules.functions`).

Two facts of where a piece sits are settled here, once, rather than on every request:

- inside a function's arguments an absent variable is the empty string; in the rule's own text
  it fails the rewrite (``in_argument``, see :mod:`edgerules.variables`);
- an optional parameter left out (``$EXIT(403)``) is the empty string: the call's builder
  always receives as many arguments as :data:`edgerules.names.FUNCTIONS` lists.

With a :class:`~edgerules.probe.Probe` the closures also record what the tester's trace shows.
"""

from __future__ import annotations

from edgerules.frame import Evaluator
from edgerules.functions import BUILDERS
from edgerules.names import FUNCTIONS
from edgerules.nodes import Call, CaptureRef, Concat, Expr, Group, Literal, Variable
from edgerules.probe import CONDITION_FUNCTIONS, Probe
from edgerules.variables import compile_capture_ref, compile_group, compile_variable


def constant(value: str) -> Evaluator:
    return lambda frame: value


_EMPTY = constant("")  # every left-out optional argument


def compile_expr(node: Expr, *, in_argument: bool = False, probe: Probe | None = None) -> Evaluator:
    if isinstance(node, Literal):
        return constant(node.value)
    if isinstance(node, Variable):
        return compile_variable(node, in_argument=in_argument, probe=probe)
    if isinstance(node, Group):
        return compile_group(node, in_argument=in_argument)
    if isinstance(node, CaptureRef):
        return compile_capture_ref(node, in_argument=in_argument)
    return compile_call(node, probe=probe)


def compile_call(node: Call, *, probe: Probe | None = None) -> Evaluator:
    args = [compile_concat(arg, in_argument=True, probe=probe) for arg in node.args]
    if probe is not None and node.name in CONDITION_FUNCTIONS:
        args = [
            probe.condition(node, position, arg, evaluator)
            for position, (arg, evaluator) in enumerate(zip(node.args, args, strict=True), 1)
        ]
    left_out = len(FUNCTIONS[node.name].parameters) - len(args)
    if left_out > 0:
        args.extend([_EMPTY] * left_out)
    return BUILDERS[node.name](node, args)


def _merged(parts: tuple[Expr, ...]) -> list[Expr | str]:
    """Pieces with runs of literals joined into plain strings."""
    merged: list[Expr | str] = []
    for part in parts:
        if isinstance(part, Literal):
            if merged and isinstance(merged[-1], str):
                merged[-1] += part.value
            else:
                merged.append(part.value)
        else:
            merged.append(part)
    return merged


def compile_concat(
    node: Concat, *, in_argument: bool = False, probe: Probe | None = None
) -> Evaluator:
    """``in_argument`` is false for the rule's own text (its body), true inside a call."""
    pieces = [
        constant(piece)
        if isinstance(piece, str)
        else compile_expr(piece, in_argument=in_argument, probe=probe)
        for piece in _merged(node.parts)
    ]
    if not pieces:
        return constant("")
    if len(pieces) == 1:
        return pieces[0]
    if len(pieces) == 2:
        first, second = pieces
        return lambda frame: first(frame) + second(frame)
    if len(pieces) == 3:
        first, second, third = pieces
        return lambda frame: first(frame) + second(frame) + third(frame)
    evaluators = tuple(pieces)
    return lambda frame: "".join([evaluator(frame) for evaluator in evaluators])
