"""What running a rule set produced for one request: a plain, immutable record."""

from __future__ import annotations

from dataclasses import dataclass

from edgerules.diagnostics import Diagnostic
from edgerules.effects import Exit, HeaderChange, Redirect, Response
from edgerules.evaluator import Status
from edgerules.probe import ConditionCheck, VariableReading


@dataclass(frozen=True, slots=True)
class RuleStep:
    """One line of the trace: what happened to rule number ``index`` (0-based).

    ``matched`` is ``None`` when the pattern was not tried (a rule that is off, one in test
    for a request neither from its addresses nor with the preview header, or a rule after a
    break / redirect / exit). ``value`` is what the rule evaluated
    to, ``error`` the syntax or evaluation error with its position, ``stopped_at`` the
    line/column of the ``$WHEN`` that stopped it. ``checks`` lists every condition of a
    ``$WHEN``/``$ALL``/``$ANY`` the rule evaluated, in order, with its text and value (so the
    false one is named); ``readings`` each variable of the rule once, with its value (``None``
    when absent) or as not evaluated.
    """

    index: int
    pattern: str
    rule: str
    status: Status
    matched: bool | None
    groups: tuple[str | None, ...] = ()
    value: str = ""
    error: Diagnostic | None = None
    response: Response | None = None
    stopped_at: tuple[int, int] | None = None
    checks: tuple[ConditionCheck, ...] = ()
    readings: tuple[VariableReading, ...] = ()


@dataclass(slots=True)
class Outcome:
    """The edge's instructions for one request.

    ``uri``/``query`` are final (URL rewrite applied last, after ``$DEL_ARG``); ``rewrite_rule``
    is the index of the rule whose rewrite won (the last successful one), ``None`` if the URL
    was not rewritten. When ``redirect`` or ``exit`` is set the request is answered at once and
    no rewrite applies. Header changes are listed in the order the edge must apply them.
    ``limit_rate_after`` is in bytes, ``limit_rate`` in bytes per second; ``method`` and
    ``body`` are what ``$SET_METHOD`` / ``$SET_BODY`` chose (``None``: unchanged). Not
    frozen: a frozen dataclass's ``__init__`` costs several times more, and one is built per
    request.
    """

    uri: str
    query: str
    rewrite_rule: int | None = None
    request_headers: tuple[HeaderChange, ...] = ()
    response_headers: tuple[HeaderChange, ...] = ()
    deleted_args: tuple[str, ...] = ()
    redirect: Redirect | None = None
    exit: Exit | None = None
    redirect_404: str | None = None
    limit_rate_after: int | None = None
    limit_rate: int | None = None
    method: str | None = None
    body: str | None = None
    trace: tuple[RuleStep, ...] = ()

    @property
    def url(self) -> str:
        """``uri`` with ``?query`` when there is a query."""
        return f"{self.uri}?{self.query}" if self.query else self.uri

    @property
    def rewritten(self) -> bool:
        return self.rewrite_rule is not None

    @property
    def ended(self) -> bool:
        """True when the rule set answered the request itself (redirect or exit)."""
        return self.redirect is not None or self.exit is not None
