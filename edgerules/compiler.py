"""Syntax tree -> closures. Done once per rule, so a request costs only closure calls.

Adjacent literal pieces are merged, a fully literal rule becomes a constant, and each function
call becomes the closure its builder returns (see :mod:`edgerules.functions`).
"""

from __future__ import annotations

from edgerules.frame import Evaluator
from edgerules.functions import BUILDERS
from edgerules.nodes import Call, Concat, Expr, Group, Literal, Variable
from edgerules.variables import compile_group, compile_variable


def constant(value: str) -> Evaluator:
    return lambda frame: value


def compile_expr(node: Expr) -> Evaluator:
    if isinstance(node, Literal):
        return constant(node.value)
    if isinstance(node, Variable):
        return compile_variable(node)
    if isinstance(node, Group):
        return compile_group(node)
    return compile_call(node)


def compile_call(node: Call) -> Evaluator:
    args = [compile_concat(arg) for arg in node.args]
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


def compile_concat(node: Concat) -> Evaluator:
    pieces = [
        constant(piece) if isinstance(piece, str) else compile_expr(piece)
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
