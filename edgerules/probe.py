"""What the rule tester's trace records while a rule runs, so staff can see *why* it did what
it did: every condition of ``$WHEN``/``$ALL``/``$ANY`` with its text and value, and every
variable with the value it had (``None`` when the request does not have it).

Only a rule compiled for tracing carries probes (:meth:`CompiledRule.traced_body`, run by
``RuleSet.run(trace=True)`` on a :class:`TracingFrame`); the edge runs rules compiled without
them, so a request pays nothing for the tester.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from edgerules.context import RequestContext
from edgerules.frame import Evaluator, Frame, GroupSource
from edgerules.nodes import Call, Concat, Variable
from edgerules.source import excerpt

# Functions whose arguments are conditions: the trace says which one was false.
CONDITION_FUNCTIONS = frozenset({"WHEN", "ALL", "ANY"})

Reader = Callable[[Frame], "str | None"]


@dataclass(frozen=True, slots=True)
class ConditionCheck:
    """Argument ``position`` (1-based) of ``$function``, as written, and what it evaluated to."""

    function: str
    position: int
    text: str
    value: str
    line: int
    column: int

    @property
    def held(self) -> bool:
        return self.value != ""


@dataclass(frozen=True, slots=True)
class VariableReading:
    """A variable of the rule and its value for this request.

    ``value`` is ``None`` when the request does not have it (absent); ``evaluated`` is false
    for a variable the rule never reached (a ``$WHEN`` stopped before it, or a short-circuit).
    """

    text: str
    value: str | None
    line: int
    column: int
    evaluated: bool = True

    @property
    def absent(self) -> bool:
        return self.evaluated and self.value is None


class TracingFrame(Frame):
    """A frame that also collects the probes' records."""

    __slots__ = ("checks", "readings")

    def __init__(self, ctx: RequestContext, match: GroupSource) -> None:
        super().__init__(ctx, match)
        self.checks: list[ConditionCheck] = []
        self.readings: list[VariableReading] = []


class Probe:
    """Wraps evaluators of one rule so that they record into a :class:`TracingFrame`."""

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def condition(self, call: Call, position: int, arg: Concat, evaluator: Evaluator) -> Evaluator:
        function, text = call.name, excerpt(self.source, arg.span).strip()
        line, column = arg.span.line, arg.span.column

        def evaluate(frame: Frame) -> str:
            value = evaluator(frame)
            cast(TracingFrame, frame).checks.append(
                ConditionCheck(function, position, text, value, line, column)
            )
            return value

        return evaluate

    def variable(self, node: Variable, reader: Reader) -> Reader:
        text, line, column = node.text, node.span.line, node.span.column

        def read(frame: Frame) -> str | None:
            value = reader(frame)
            cast(TracingFrame, frame).readings.append(VariableReading(text, value, line, column))
            return value

        return read


def readings_of(
    frame: TracingFrame, variables: tuple[Variable, ...]
) -> tuple[VariableReading, ...]:
    """One reading per variable name, in the rule's order: the first value read, or a
    not-evaluated entry for a variable the run never reached."""
    first: dict[str, VariableReading] = {}
    for reading in frame.readings:
        first.setdefault(reading.text, reading)
    found: dict[str, VariableReading] = {}
    for node in variables:
        if node.text not in found:
            found[node.text] = first.get(node.text) or VariableReading(
                node.text, None, node.span.line, node.span.column, evaluated=False
            )
    return tuple(found.values())
