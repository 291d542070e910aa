"""The rule-set runner: every rule of a domain, in order, for one request.

Compile once with :func:`compile_rule_set`, then call :meth:`RuleSet.run` per request. For each
rule, in order (content-delivery.md, "Rewrite process"):

1. A rule that is off is skipped; a rule in test is skipped unless the request comes from one
   of its test addresses or carries ``X-svc-Rewrite-Preview: true`` (:mod:`edgerules.rulespec`).
2. Its pattern is searched in the request URI; no match: next rule.
3. The rule is evaluated. ``$WHEN`` false, a syntax error or a failure stops *this rule* (it
   leaves no effect) and the next rule runs.
4. ``$REDIRECT``/``$EXIT`` end the rule set at once (DECISIONS.md).
5. If the rule completed and has ``break`` set (or ends with ``$$``), no further rule runs.

Every rule sees the request as it arrived: patterns match the original URI and variables read
the original request. URL rewrites apply after every other action (DECISIONS.md, from the
public docs), so a rewrite produced by one rule does not change what later rules match; when
several rules rewrite, the last one to complete wins (set ``break`` to keep an earlier one). A
rule whose value is empty (only actions, or a false ``$SELECT``) does not rewrite the URL.

The rewritten URL's query: the text after the first ``?`` of the rule's value, followed (unless
the rule ends with the ``?`` marker) by the original query minus ``$DEL_ARG`` deletions. A value
starting with ``?`` keeps the original path, as a relative reference ``?q`` does (RFC 3986).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, cast

import regex

from edgerules import effects as kinds
from edgerules.context import RequestContext
from edgerules.diagnostics import Diagnostic, EvalError
from edgerules.effects import (
    Effect,
    EndRuleSet,
    Exit,
    HeaderChange,
    Redirect,
    Response,
    RuleStopped,
)
from edgerules.evaluator import CompiledRule, Status
from edgerules.frame import Evaluator, Frame
from edgerules.outcome import Outcome, RuleStep
from edgerules.patterns import CompiledPattern, Search, compile_pattern
from edgerules.probe import TracingFrame, readings_of
from edgerules.querystring import join, without
from edgerules.rulespec import OFF, TEST, RuleSpec, from_test_address, test_networks


class _Entry:
    """A compiled rule plus everything the run loop needs, precomputed."""

    __slots__ = (
        "body",
        "breaks",
        "debug",
        "index",
        "networks",
        "off",
        "pattern",
        "rule",
        "search",
        "spec",
        "step_debug_skipped",
        "step_not_matched",
        "step_off",
        "step_not_reached",
    )

    def __init__(self, index: int, spec: RuleSpec) -> None:
        self.index = index
        self.spec = spec
        self.pattern: CompiledPattern = compile_pattern(spec.pattern)
        self.rule = CompiledRule(spec.rule)
        self.search: Search | None = self.pattern.search
        self.body: Evaluator = self.rule.body
        self.debug = spec.state == TEST
        self.off = spec.state == OFF
        self.networks = test_networks(spec.test_addresses) if self.debug else ()
        self.breaks = spec.break_ or self.rule.breaks
        # Immutable trace steps are shared by every request that produces them.
        self.step_debug_skipped = self.step(Status.DEBUG_SKIPPED, None)
        self.step_off = self.step(Status.OFF, None)
        self.step_not_reached = self.step(Status.NOT_REACHED, None)
        if self.search is None:
            self.step_not_matched = self.step(Status.FAILED, False, error=self.pattern.error)
        else:
            self.step_not_matched = self.step(Status.NOT_MATCHED, False)

    def step(
        self,
        status: Status,
        matched: bool | None,
        *,
        groups: tuple[str | None, ...] = (),
        value: str = "",
        error: Diagnostic | None = None,
        response: Response | None = None,
        stopped_at: tuple[int, int] | None = None,
    ) -> RuleStep:
        spec = self.spec
        return RuleStep(
            self.index,
            spec.pattern,
            spec.rule,
            status,
            matched,
            groups,
            value,
            error,
            response,
            stopped_at,
        )


class RuleSet:
    """A compiled rule set. Thread-safe: :meth:`run` keeps all request state local."""

    __slots__ = ("_entries", "_has_debug", "_has_off")

    def __init__(self, specs: Iterable[RuleSpec]) -> None:
        self._entries = tuple(_Entry(index, spec) for index, spec in enumerate(specs))
        self._has_debug = any(entry.debug for entry in self._entries)
        self._has_off = any(entry.off for entry in self._entries)

    @property
    def specs(self) -> tuple[RuleSpec, ...]:
        return tuple(entry.spec for entry in self._entries)

    @property
    def rules(self) -> tuple[CompiledRule, ...]:
        return tuple(entry.rule for entry in self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def run(self, ctx: RequestContext, *, trace: bool = True) -> Outcome:
        """Run every rule for ``ctx``. With ``trace=False`` the outcome has no trace (faster)."""
        state = _Run(trace)
        steps = state.steps
        preview = ctx.wants_preview if self._has_debug else False
        uri = ctx.uri
        entries = self._entries
        last = len(entries)
        skips = self._has_off or (self._has_debug and not preview)
        # Skipped rules are handled inline: this loop is the per-request hot path.
        for position, entry in enumerate(entries):
            if skips:
                if entry.off:
                    if trace:
                        steps.append(entry.step_off)
                    continue
                if entry.debug and not preview and not from_test_address(entry.networks, ctx.ip):
                    if trace:
                        steps.append(entry.step_debug_skipped)
                    continue
            search = entry.search
            match = search(uri) if search is not None else None
            if match is None:
                if trace:
                    steps.append(entry.step_not_matched)
                continue
            if trace:
                frame: Frame = TracingFrame(ctx, match)
                stop = state.evaluate(entry, entry.rule.traced_body(), frame, match)
            else:
                stop = state.evaluate(entry, entry.body, Frame(ctx, match), match)
            if stop:
                last = position + 1
                break
        if trace:
            steps.extend(entry.step_not_reached for entry in entries[last:])
        return state.outcome(ctx)


class _Run:
    """What one request has accumulated so far while its rules run."""

    __slots__ = ("effects", "response", "rewrite", "steps", "trace")

    def __init__(self, trace: bool) -> None:
        self.trace = trace
        self.steps: list[RuleStep] = []
        self.effects: list[Effect] = []
        self.rewrite: tuple[_Entry, str] | None = None
        self.response: Response | None = None

    def evaluate(
        self, entry: _Entry, body: Evaluator, frame: Frame, match: regex.Match[str]
    ) -> bool:
        """Evaluate a matched rule; true when no further rule may run."""
        try:
            value = body(frame)
        except RuleStopped as stop:
            if self.trace:
                where = (stop.line, stop.column)
                self.note(entry, frame, match, Status.STOPPED, stopped_at=where)
            return False
        except EvalError as error:
            if self.trace:
                self.note(entry, frame, match, Status.FAILED, error=error.diagnostic)
            return False
        except EndRuleSet as end:
            self.effects.extend(frame.effects)
            self.response = end.response
            if self.trace:
                self.note(entry, frame, match, Status.ENDED, response=end.response)
            return True
        self.effects.extend(frame.effects)
        if value:
            self.rewrite = (entry, value)
        if self.trace:
            self.note(entry, frame, match, Status.APPLIED, value=value)
        return entry.breaks

    def note(
        self,
        entry: _Entry,
        frame: Frame,
        match: regex.Match[str],
        status: Status,
        **details: Any,
    ) -> None:
        """Add the trace step of a matched rule, with what its probes recorded."""
        step = entry.step(status, True, groups=match.groups(), **details)
        if isinstance(frame, TracingFrame):
            step = replace(
                step,
                checks=tuple(frame.checks),
                readings=readings_of(frame, entry.rule.variables),
            )
        self.steps.append(step)

    def outcome(self, ctx: RequestContext) -> Outcome:
        steps = tuple(self.steps)
        if not self.effects and self.rewrite is None and self.response is None:
            return Outcome(ctx.uri, ctx.query, trace=steps)
        changes = _Changes(self.effects)
        uri, query = ctx.uri, without(ctx.query, set(changes.deleted))
        rewrite_rule = None
        if self.rewrite is not None and self.response is None:
            entry, value = self.rewrite
            path, _, new_query = value.partition("?")
            uri = path or uri
            query = join(new_query, query) if entry.rule.append_query else new_query
            rewrite_rule = entry.index
        response = self.response
        return Outcome(
            uri=uri,
            query=query,
            rewrite_rule=rewrite_rule,
            request_headers=tuple(changes.request_headers),
            response_headers=tuple(changes.response_headers),
            deleted_args=tuple(dict.fromkeys(changes.deleted)),
            redirect=response if isinstance(response, Redirect) else None,
            exit=response if isinstance(response, Exit) else None,
            redirect_404=cast("str | None", changes.last.get(kinds.REDIRECT_404)),
            limit_rate_after=cast("int | None", changes.last.get(kinds.LIMIT_RATE_AFTER)),
            limit_rate=cast("int | None", changes.last.get(kinds.LIMIT_RATE)),
            method=cast("str | None", changes.last.get(kinds.SET_METHOD)),
            body=cast("str | None", changes.last.get(kinds.SET_BODY)),
            trace=steps,
        )


class _Changes:
    """Effects sorted by kind; for single-valued kinds (404 target, limits, method, body) the
    last one wins."""

    __slots__ = ("deleted", "last", "request_headers", "response_headers")

    def __init__(self, effects: list[Effect]) -> None:
        self.request_headers: list[HeaderChange] = []
        self.response_headers: list[HeaderChange] = []
        self.deleted: list[str] = []
        self.last: dict[str, object] = {}
        for kind, payload in effects:
            if kind == kinds.REQUEST_HEADER:
                self.request_headers.append(cast(HeaderChange, payload))
            elif kind == kinds.RESPONSE_HEADER:
                self.response_headers.append(cast(HeaderChange, payload))
            elif kind == kinds.DELETE_ARG:
                self.deleted.append(cast(str, payload))
            else:
                self.last[kind] = payload


def compile_rule_set(rules: Iterable[RuleSpec | Mapping[str, object]]) -> RuleSet:
    """Compile every rule and pattern once. Bad rules compile too (they fail when matched);
    use :func:`edgerules.lint_rule_set` to list their problems."""
    return RuleSet(
        rule if isinstance(rule, RuleSpec) else RuleSpec.from_mapping(rule) for rule in rules
    )
