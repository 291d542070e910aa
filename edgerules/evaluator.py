"""One rule, compiled once, evaluated against many requests.

An evaluation ends in one of four ways (:class:`Status`):

- ``applied``: the rule ran to its end; its value (possibly empty) and effects stand.
- ``stopped``: a ``$WHEN`` condition was false; nothing of the rule applies.
- ``failed``: a syntax error, a failed interpolation or a bad argument; nothing applies.
- ``ended``: ``$REDIRECT`` or ``$EXIT`` ran; the rule set ends with that response, keeping the
  effects the rule made before it.

A syntax error does not make compilation raise: the rule compiles to one that fails every time
it is evaluated, carrying the error's position. The edge must keep serving a rule set in which
one rule is broken ("a syntax error ... stops the rewriting" of that rule).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from edgerules.compiler import compile_concat
from edgerules.context import RequestContext
from edgerules.diagnostics import Diagnostic, EvalError, RuleSyntaxError
from edgerules.effects import Effect, EndRuleSet, Response, RuleStopped
from edgerules.frame import NO_MATCH, Evaluator, Frame, GroupSource
from edgerules.nodes import Rule, Variable, walk
from edgerules.parser import parse
from edgerules.probe import ConditionCheck, Probe, TracingFrame, VariableReading, readings_of


class Status(StrEnum):
    APPLIED = "applied"
    STOPPED = "stopped"
    FAILED = "failed"
    ENDED = "ended"
    NOT_MATCHED = "not-matched"
    DEBUG_SKIPPED = "debug-skipped"  # in test, and the request is not one it applies to
    OFF = "off"
    NOT_REACHED = "not-reached"


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The result of evaluating one rule for one request."""

    status: Status
    value: str = ""
    effects: tuple[Effect, ...] = ()
    response: Response | None = None
    error: Diagnostic | None = None
    stopped_at: tuple[int, int] | None = None
    checks: tuple[ConditionCheck, ...] = ()
    readings: tuple[VariableReading, ...] = ()


def _failing(error: Diagnostic) -> Evaluator:
    def evaluate(frame: Frame) -> str:
        raise EvalError(error)

    return evaluate


class CompiledRule:
    """A rule ready to run: parse once, call :meth:`evaluate` per request."""

    __slots__ = (
        "_traced_body",
        "append_query",
        "body",
        "breaks",
        "source",
        "syntax",
        "syntax_errors",
        "variables",
    )

    def __init__(self, source: str) -> None:
        self.source = source
        self.syntax: Rule | None
        self.syntax_errors: tuple[Diagnostic, ...]
        self._traced_body: Evaluator | None = None
        self.variables: tuple[Variable, ...] = ()
        try:
            rule = parse(source)
        except RuleSyntaxError as error:
            self.syntax, self.syntax_errors = None, error.diagnostics
            self.body = _failing(error.first)
            self._traced_body = self.body
            self.append_query = True
            self.breaks = False
            return
        self.syntax, self.syntax_errors = rule, ()
        self.body = compile_concat(rule.body)
        self.variables = tuple(node for node in walk(rule.body) if isinstance(node, Variable))
        self.append_query = rule.append_query
        self.breaks = rule.breaks

    def traced_body(self) -> Evaluator:
        """The body compiled with probes, for the tester's trace; run it on a
        :class:`~edgerules.probe.TracingFrame`. Compiled on first use: the edge never needs it."""
        if self._traced_body is None and self.syntax is not None:
            self._traced_body = compile_concat(self.syntax.body, probe=Probe(self.source))
        return self._traced_body or self.body

    @property
    def ok(self) -> bool:
        """False when the rule has a syntax error (it then fails whenever it is evaluated)."""
        return not self.syntax_errors

    def evaluate(
        self, ctx: RequestContext, match: GroupSource | None = None, *, trace: bool = False
    ) -> Evaluation:
        """Evaluate for ``ctx``; ``match`` supplies ``$N`` (a ``regex`` match of the pattern).
        With ``trace``, the evaluation also lists condition checks and variable readings."""
        source = match if match is not None else NO_MATCH
        if not trace:
            return self._run(self.body, Frame(ctx, source))
        frame = TracingFrame(ctx, source)
        result = self._run(self.traced_body(), frame)
        return replace(
            result, checks=tuple(frame.checks), readings=readings_of(frame, self.variables)
        )

    def _run(self, body: Evaluator, frame: Frame) -> Evaluation:
        try:
            value = body(frame)
        except RuleStopped as stop:
            return Evaluation(Status.STOPPED, stopped_at=(stop.line, stop.column))
        except EvalError as error:
            return Evaluation(Status.FAILED, error=error.diagnostic)
        except EndRuleSet as end:
            return Evaluation(Status.ENDED, effects=tuple(frame.effects), response=end.response)
        return Evaluation(Status.APPLIED, value, tuple(frame.effects))


def compile_rule(source: str) -> CompiledRule:
    """Compile one rule. Never raises for bad rules: check :attr:`CompiledRule.ok`."""
    return CompiledRule(source)


def evaluate(
    rule: str | CompiledRule,
    ctx: RequestContext,
    match: GroupSource | None = None,
    *,
    trace: bool = False,
) -> Evaluation:
    """Convenience for the rule tester: compile (if needed) and evaluate one rule."""
    compiled = rule if isinstance(rule, CompiledRule) else CompiledRule(rule)
    return compiled.evaluate(ctx, match, trace=trace)
