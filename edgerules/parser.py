"""Parser: rule text -> :class:`~edgerules.nodes.Rule`, with every syntax error located.

Trailing markers, decided here because the spec only says "unless the rule ends with ``?``"
and "a rule ending in ``$$`` means break":

- The "do not append the original query" marker is the last unescaped, unquoted ``?`` of the
  rule at top level, optionally followed by ``$$`` (``/a?$$``). It is a marker and never
  becomes part of the URL.
- ``??`` is not a special form: the rule ends with ``?``, so that last ``?`` is the marker and
  the one before it is ordinary text. ``/foo??`` rewrites to ``/foo`` with an empty query and
  does not append the original query. This keeps the spec's sentence literally true for every
  rule. To end the URL with a literal ``?`` *and* append the original query, write ``\\?`` or
  ``'?'`` at the end: neither is an unescaped trailing ``?``.
- ``$$`` must be the very last thing in the rule (whitespace aside); anywhere else it is an
  error (``misplaced-break``), as is ``$$?``.
- A ``?`` anywhere else is literal text (``/pay.php?id=$1``).

Other decisions: whitespace between ``$NAME`` and ``(`` is allowed (whitespace is ignored in
plain text); an unescaped ``(``, ``)`` or ``,`` that is not part of a call is an error;
``$F()`` has no argument while ``$F(,)`` has two empty ones; fewer arguments than a function's
required parameters (:data:`edgerules.names.FUNCTIONS`) is an error naming the first missing
one; more arguments than a function uses is only a warning (they are evaluated and ignored, as
the spec says).
"""

from __future__ import annotations

from edgerules import diagnostics as codes
from edgerules.diagnostics import Diagnostic, RuleSyntaxError
from edgerules.lexer import Kind, Token, tokenize
from edgerules.names import (
    FUNCTIONS,
    RANDOM_MAX_LENGTH,
    RANDOM_MIN_LENGTH,
    Signature,
    UnknownVariable,
    classify_variable,
    suggest_function,
    suggest_variable,
)
from edgerules.nodes import Call, CaptureRef, Concat, Expr, Group, Literal, Rule, Variable
from edgerules.source import SourceMap, Span

# Calls nested deeper than this are refused: no real rule needs it, and a pasted or generated
# rule must not be able to exhaust the parser's (or the evaluator's) stack.
MAX_NESTING = 64


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.map = SourceMap(source)
        self.tokens, self.diagnostics = tokenize(source, self.map)
        self.index = 0
        self.depth = 0
        self.captures = 0  # ``$CAPTURE`` calls seen so far: each one's number is its order

    # -- token helpers -------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.index + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        if token.kind is not Kind.EOF:
            self.index += 1
        return token

    def span(self, token: Token) -> Span:
        return self.map.span(token.start, token.end)

    def error(self, code: str, message: str, span: Span) -> None:
        self.diagnostics.append(span.diagnostic(code, message))

    def warn(self, code: str, message: str, span: Span) -> None:
        self.diagnostics.append(span.diagnostic(code, message, severity="warning"))

    # -- grammar -------------------------------------------------------------------------

    def rule(self) -> Rule:
        parts, append_query, breaks = self.top_level()
        body = self.concat(parts, 0, len(self.source))
        warnings = tuple(d for d in self.diagnostics if d.severity == "warning")
        return Rule(self.source, body, append_query, breaks, warnings)

    def top_level(self) -> tuple[list[Expr], bool, bool]:
        parts: list[Expr] = []
        append_query = True
        breaks = False
        while True:
            token = self.peek()
            kind = token.kind
            if kind is Kind.EOF:
                return parts, append_query, breaks
            if kind is Kind.BREAK:
                self.advance()
                if self.peek().kind is Kind.EOF:
                    breaks = True
                else:
                    self.error(
                        codes.MISPLACED_BREAK,
                        "the break marker $$ may only end the rule (write \\$\\$ for two dollars)",
                        self.span(token),
                    )
            elif kind is Kind.QMARK and self.is_trailing_qmark():
                self.advance()
                append_query = False
            elif kind is Kind.RPAREN:
                self.advance()
                self.error(
                    codes.UNBALANCED_PAREN,
                    "')' has no matching '(' (write \\) for a literal parenthesis)",
                    self.span(token),
                )
            elif kind is Kind.COMMA:
                self.advance()
                self.error(
                    codes.STRAY_COMMA,
                    "',' outside a function call must be written \\,",
                    self.span(token),
                )
            else:
                parts.append(self.piece())

    def is_trailing_qmark(self) -> bool:
        after = self.peek(1).kind
        return after is Kind.EOF or (after is Kind.BREAK and self.peek(2).kind is Kind.EOF)

    def piece(self) -> Expr:
        """One piece inside a sequence: never called on EOF, ')' or ','."""
        token = self.advance()
        kind = token.kind
        if kind in (Kind.TEXT, Kind.QMARK):
            return Literal(token.value, self.span(token))
        if kind is Kind.QUOTED:
            return Literal(token.value, self.span(token), quoted=True)
        if kind is Kind.VAR:
            return self.variable(token)
        if kind is Kind.GROUP:
            return Group(int(token.value), self.span(token))
        if kind is Kind.CAPTURE:
            ordinal, _, index = token.value.partition(".")
            if int(ordinal) < 1:
                self.error(
                    codes.UNKNOWN_CAPTURE,
                    f"${token.value}: $CAPTURE calls are counted from 1",
                    self.span(token),
                )
            return CaptureRef(int(ordinal), int(index), "$" + token.value, self.span(token))
        if kind is Kind.FUNC:
            if self.depth >= MAX_NESTING:
                return self.skip_call(token)
            self.depth += 1
            try:
                return self.call(token)
            finally:
                self.depth -= 1
        if kind is Kind.LPAREN:
            self.error(
                codes.UNBALANCED_PAREN,
                "'(' that does not open a function call must be written \\(",
                self.span(token),
            )
            return Literal("(", self.span(token))
        # BREAK inside an argument
        self.error(
            codes.MISPLACED_BREAK,
            "the break marker $$ may only end the rule (write \\$\\$ for two dollars)",
            self.span(token),
        )
        return Literal("", self.span(token))

    def variable(self, token: Token) -> Expr:
        span = self.span(token)
        text = "$_" + token.value
        try:
            name = classify_variable(token.value)
        except UnknownVariable:
            if not token.value:
                message = "'$_' must be followed by a variable name"
            else:
                hint = suggest_variable(token.value)
                tail = f" (did you mean $_{hint}?)" if hint else ""
                message = f"unknown variable {text}{tail}"
            self.error(codes.UNKNOWN_VARIABLE, message, span)
            return Literal("", span)
        if name.kind == "RANDOM_N":
            length = int(name.key)
            if not RANDOM_MIN_LENGTH <= length <= RANDOM_MAX_LENGTH:
                self.error(
                    codes.RANDOM_LENGTH,
                    f"{text}: the length must be between {RANDOM_MIN_LENGTH} and "
                    f"{RANDOM_MAX_LENGTH}",
                    span,
                )
        elif name.kind == "HOST_N" and int(name.key) < 1:
            self.error(codes.HOST_INDEX, f"{text}: sub-domains are counted from 1", span)
        return Variable(name.kind, name.key, text, span)

    def call(self, name_token: Token) -> Call:
        name = name_token.value
        name_span = self.span(name_token)
        ordinal = 0
        if name == "CAPTURE":
            self.captures += 1
            ordinal = self.captures
        open_token = self.advance()  # the lexer always emits LPAREN right after FUNC
        args: list[Concat] = []
        end = open_token.end
        if self.peek().kind is Kind.RPAREN:
            end = self.advance().end
        else:
            while True:
                arg_start = self.peek().start
                parts = self.argument()
                args.append(self.concat(parts, arg_start, self.peek().start))
                closing = self.peek()
                if closing.kind is Kind.COMMA:
                    self.advance()
                    continue
                if closing.kind is Kind.RPAREN:
                    end = self.advance().end
                else:  # EOF
                    end = closing.end
                    self.error(
                        codes.UNBALANCED_PAREN,
                        f"'(' of ${name} is never closed (missing ')')",
                        self.span(open_token),
                    )
                break
        self.check_call(name, len(args), name_span)
        span = self.map.span(name_token.start, end)
        return Call(name, tuple(args), span, name_span, ordinal)

    def skip_call(self, name_token: Token) -> Expr:
        """Report a call nested too deeply and skip to its closing parenthesis."""
        self.error(
            codes.TOO_DEEP,
            f"function calls are nested more than {MAX_NESTING} levels deep",
            self.span(name_token),
        )
        balance = 0
        while self.peek().kind is not Kind.EOF:
            kind = self.advance().kind
            if kind is Kind.LPAREN:
                balance += 1
            elif kind is Kind.RPAREN:
                balance -= 1
                if balance == 0:
                    break
        return Literal("", self.span(name_token))

    def argument(self) -> list[Expr]:
        parts: list[Expr] = []
        while self.peek().kind not in (Kind.COMMA, Kind.RPAREN, Kind.EOF):
            parts.append(self.piece())
        return parts

    def check_call(self, name: str, count: int, span: Span) -> None:
        signature = FUNCTIONS.get(name)
        if signature is None:
            hint = suggest_function(name)
            tail = f" (did you mean ${hint}?)" if hint else ""
            self.error(codes.UNKNOWN_FUNCTION, f"unknown function ${name}{tail}", span)
            return
        if count < signature.required:
            missing = signature.parameters[count]
            self.error(
                codes.ARITY,
                f"${name} is missing {missing.name} ({missing.role}): {_needs(signature)}, "
                f"got {count}; usage {signature.usage()}",
                span,
            )
        elif signature.accepted is not None and count > signature.accepted:
            used = signature.accepted
            self.warn(
                codes.EXTRA_ARGUMENTS,
                f"${name} uses {used} argument{'s' if used != 1 else ''}; the other "
                f"{count - used} will be evaluated and ignored",
                span,
            )

    def concat(self, parts: list[Expr], start: int, end: int) -> Concat:
        if parts:
            first, last = parts[0].span, parts[-1].span
            span = Span(first.line, first.column, last.end_line, last.end_column)
        else:
            span = self.map.span(start, end)
        return Concat(tuple(parts), span)


def _needs(signature: Signature) -> str:
    """``needs 2 arguments`` / ``needs 1 or 2 arguments`` / ``needs at least 1 argument``."""
    low, high = signature.required, signature.accepted
    if high is None:
        count = f"at least {low}"
    elif high == low:
        count = str(low)
    else:
        count = f"{low} to {high}" if high - low > 1 else f"{low} or {high}"
    plural = "" if (high or low) == 1 else "s"
    return f"it needs {count} argument{plural}"


def parse_with_diagnostics(source: str) -> tuple[Rule, list[Diagnostic]]:
    """Parse as far as possible: the tree (best effort) and every diagnostic, in text order."""
    parser = _Parser(source)
    rule = parser.rule()
    found = sorted(parser.diagnostics, key=lambda d: (d.line, d.column))
    return rule, found


def parse(source: str) -> Rule:
    """Parse one rule. Raises :class:`RuleSyntaxError` listing every error if there is any."""
    rule, found = parse_with_diagnostics(source)
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise RuleSyntaxError(errors)
    return rule
