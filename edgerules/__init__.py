"""edgerules: the rewrite language of the CDN edge (content-delivery.md, "Rewrite language").

Pure Python (stdlib + ``regex``), no Django: the back-office rule editor/tester and the sandbox
edge both use it.

Typical use::

    rule_set = compile_rule_set([{"pattern": r"^/old/(.*)$", "rule": "/new/$1",
                                  "state": "enabled"}])
    outcome = rule_set.run(RequestContext(host="cdn.example.com", uri="/old/a.jpg"))
    outcome.url  # "/new/a.jpg"

    lint("$WHEN($EQ($_HOST, a)")  # [Diagnostic(code="unbalanced-paren", line=1, column=6, ...)]

Language decisions where the spec is silent (details in the module named):

- Values are strings; the empty string is false, any other string true; boolean functions
  return ``"true"`` or ``""`` (:mod:`edgerules.frame`).
- The language is the public page's whole one (cdn/edgerules.md), content-delivery.md's table
  winning where they differ. One table of parameters (:data:`edgerules.names.FUNCTIONS`) says
  which may be left out: ``$MATCH`` E3, ``$ADD_RSP_HEADER`` E3, ``$RANDI`` E2 and ``$EXIT`` E2
  (DECISIONS.md: the provider's documented examples are normative), and the page's optional
  ``$INT`` E2, E3 and ``$STRF_TIME`` E2; a left-out argument is the empty string.
- ``$ALL()`` and ``$ANY()`` are false; arithmetic is decimal, a zero divisor fails the rule;
  ``$DEL_RSP_HEADER`` leaves the edge's protected headers (:mod:`edgerules.functions`).
- A rule is enabled, off, or in test for its listed addresses and the preview header
  (:mod:`edgerules.rulespec`); ``$_GEOIP_COUNTRY_CODE`` comes from the lookup the caller gives
  (``RequestContext.country_of``).
  Fewer than the required parameters is a syntax error naming the missing one, more a warning
  (:mod:`edgerules.names`, :mod:`edgerules.parser`, :mod:`edgerules.compiler`).
- ``$_SCHEME`` is lowercase, ``$_METHOD`` uppercase. An absent variable is the empty string
  inside a function's arguments and fails the rewrite in the rule's own text
  (:mod:`edgerules.variables`).
- Trailing ``?`` = do not append the original query; ``??`` = a literal ``?`` followed by that
  marker; ``\\?`` or ``'?'`` = a literal ``?`` with the query still appended; ``$$`` must end
  the rule (:mod:`edgerules.parser`).
- Plain-text escapes are limited to ``$ ( ) , ' \\ ?`` and space/tab, quoted-string escapes to
  ``\\\\`` and ``\\'``; anything else is a ``bad-escape`` error (:mod:`edgerules.lexer`).
- A stopped or failed rule leaves no effect; later rules still run; patterns always match the
  original URI; the last completed rewrite wins (:mod:`edgerules.ruleset`).
- The traced run (``RuleSet.run(trace=True)``, the tester's) records each condition of
  ``$WHEN``/``$ALL``/``$ANY`` and each variable's value (:mod:`edgerules.probe`); the edge's
  run records nothing.
"""

from __future__ import annotations

from edgerules.context import RequestContext
from edgerules.diagnostics import Diagnostic, EvalError, RuleSyntaxError
from edgerules.effects import Exit, HeaderChange, Redirect
from edgerules.evaluator import CompiledRule, Evaluation, Status, compile_rule, evaluate
from edgerules.linter import has_errors, lint, lint_pattern, lint_rule_set
from edgerules.nodes import Rule
from edgerules.outcome import Outcome, RuleStep
from edgerules.parser import parse
from edgerules.ruleset import RuleSet, compile_rule_set
from edgerules.rulespec import RuleSpec

__all__ = [
    "CompiledRule",
    "Diagnostic",
    "EvalError",
    "Evaluation",
    "Exit",
    "HeaderChange",
    "Outcome",
    "Redirect",
    "RequestContext",
    "Rule",
    "RuleSet",
    "RuleSpec",
    "RuleStep",
    "RuleSyntaxError",
    "Status",
    "compile_rule",
    "compile_rule_set",
    "evaluate",
    "has_errors",
    "lint",
    "lint_pattern",
    "lint_rule_set",
    "parse",
]
