"""Tokens of the rewrite language.

Plain text (outside quotes):
- whitespace is ignored;
- a backslash escapes one of ``$ ( ) , ' \\ ?`` or a space/tab; any other escape is an error
  (``bad-escape``), so a typo such as ``\\d`` is reported instead of silently changing meaning;
- ``$`` starts a function call ``$NAME(``, a variable ``$_NAME``, a group ``$N``, a
  ``$CAPTURE`` group ``$n.m`` (a dot then digits) or the break marker ``$$``; anything else
  after ``$`` is an error (``stray-dollar``);
- an unescaped ``?`` is its own token so the parser can tell the trailing "do not append the
  query" marker from a literal question mark.

Quoted text (``'...'``): only the backslash is special: ``\\\\`` is a backslash and ``\\'`` a
quote; any other escape is an error, and nothing inside is interpreted (``'$_HOST'`` is the
six characters ``$_HOST``). The lexer keeps going after an error so the linter can report
every problem in one pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto

from edgerules import diagnostics as codes
from edgerules.diagnostics import Diagnostic
from edgerules.names import FUNCTIONS
from edgerules.source import SourceMap

WHITESPACE = frozenset(" \t\r\n\f\v")
PLAIN_ESCAPABLE = frozenset("$(),'\\? \t")
QUOTED_ESCAPABLE = frozenset("\\'")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_SPECIAL = frozenset("\\'$(),?") | WHITESPACE


class Kind(Enum):
    TEXT = auto()
    QUOTED = auto()
    QMARK = auto()
    VAR = auto()
    GROUP = auto()
    CAPTURE = auto()
    FUNC = auto()
    LPAREN = auto()
    RPAREN = auto()
    COMMA = auto()
    BREAK = auto()
    EOF = auto()


@dataclass(frozen=True, slots=True)
class Token:
    """``value`` is the resolved text (TEXT/QUOTED) or the name/number after ``$``."""

    kind: Kind
    value: str
    start: int
    end: int


class Lexer:
    """Splits one rule into tokens, collecting every lexical error on the way."""

    def __init__(self, source: str, source_map: SourceMap) -> None:
        self.source = source
        self.map = source_map
        self.diagnostics: list[Diagnostic] = []
        self.tokens: list[Token] = []
        self._pos = 0
        self._text: list[str] = []
        self._text_start = -1
        self._text_end = -1

    def tokenize(self) -> list[Token]:
        src = self.source
        length = len(src)
        while self._pos < length:
            ch = src[self._pos]
            if ch in WHITESPACE:
                self._pos += 1
            elif ch not in _SPECIAL:
                self._add_text(ch, self._pos, self._pos + 1)
                self._pos += 1
            elif ch == "\\":
                self._plain_escape()
            elif ch == "'":
                self._quoted()
            elif ch == "$":
                self._dollar()
            else:
                kind = {"(": Kind.LPAREN, ")": Kind.RPAREN, ",": Kind.COMMA, "?": Kind.QMARK}[ch]
                self._emit(kind, ch, self._pos, self._pos + 1)
                self._pos += 1
        self._emit(Kind.EOF, "", length, length)
        return self.tokens

    # -- helpers -------------------------------------------------------------------------

    def _error(self, code: str, message: str, start: int, end: int) -> None:
        self.diagnostics.append(self.map.span(start, end).diagnostic(code, message))

    def _add_text(self, value: str, start: int, end: int) -> None:
        if self._text_start < 0:
            self._text_start = start
        self._text.append(value)
        self._text_end = end

    def _flush_text(self) -> None:
        if self._text_start >= 0:
            value = "".join(self._text)
            self.tokens.append(Token(Kind.TEXT, value, self._text_start, self._text_end))
            self._text.clear()
            self._text_start = -1

    def _emit(self, kind: Kind, value: str, start: int, end: int) -> None:
        self._flush_text()
        self.tokens.append(Token(kind, value, start, end))

    def _read_name(self, start: int) -> int:
        end = start
        while end < len(self.source) and self.source[end] in _NAME_CHARS:
            end += 1
        return end

    # -- plain escapes and quoted strings --------------------------------------------------

    def _plain_escape(self) -> None:
        start = self._pos
        if start + 1 >= len(self.source):
            self._error(
                codes.BAD_ESCAPE,
                "a backslash at the end of the rule escapes nothing",
                start,
                start + 1,
            )
            self._pos += 1
            return
        escaped = self.source[start + 1]
        if escaped not in PLAIN_ESCAPABLE:
            self._error(
                codes.BAD_ESCAPE,
                f"'\\{escaped}' is not an escape in plain text; a backslash may only precede "
                "$ ( ) , ' \\ ? or a space (quote the text, or write \\\\ for a backslash)",
                start,
                start + 2,
            )
        self._add_text(escaped, start, start + 2)
        self._pos = start + 2

    def _quoted(self) -> None:
        src = self.source
        start = self._pos
        pos = start + 1
        chars: list[str] = []
        while pos < len(src):
            ch = src[pos]
            if ch == "'":
                self._emit(Kind.QUOTED, "".join(chars), start, pos + 1)
                self._pos = pos + 1
                return
            if ch == "\\" and pos + 1 < len(src):
                escaped = src[pos + 1]
                if escaped in QUOTED_ESCAPABLE:
                    chars.append(escaped)
                else:
                    self._error(
                        codes.BAD_ESCAPE,
                        f"'\\{escaped}' is not an escape in a quoted string; only \\\\ and \\' "
                        "are (write \\\\ for a backslash)",
                        pos,
                        pos + 2,
                    )
                    chars.append("\\" + escaped)
                pos += 2
                continue
            chars.append(ch)
            pos += 1
        self._error(
            codes.UNTERMINATED_STRING,
            "quoted string is never closed (missing ')",
            start,
            len(src),
        )
        self._emit(Kind.QUOTED, "".join(chars), start, len(src))
        self._pos = len(src)

    # -- everything that starts with $ -------------------------------------------------------

    def _dollar(self) -> None:
        src = self.source
        start = self._pos
        nxt = src[start + 1] if start + 1 < len(src) else ""
        if nxt == "$":
            self._emit(Kind.BREAK, "$$", start, start + 2)
            self._pos = start + 2
        elif nxt == "_":
            end = self._read_name(start + 2)
            self._emit(Kind.VAR, src[start + 2 : end], start, end)
            self._pos = end
        elif nxt.isdigit():
            end = start + 1
            while end < len(src) and src[end].isdigit():
                end += 1
            kind = Kind.GROUP
            # ``$n.m``: a ``$CAPTURE`` group (cdn/edgerules.md); ``$1.html`` stays ``$1`` + text.
            if end + 1 < len(src) and src[end] == "." and src[end + 1].isdigit():
                kind = Kind.CAPTURE
                end += 1
                while end < len(src) and src[end].isdigit():
                    end += 1
            self._emit(kind, src[start + 1 : end], start, end)
            self._pos = end
        elif nxt and nxt in _NAME_CHARS:
            self._function(start)
        else:
            self._error(
                codes.STRAY_DOLLAR,
                "'$' must be written \\$ in plain text (or quoted) when it is not a function, "
                "variable, group or the $$ break marker",
                start,
                start + 1,
            )
            self._add_text("$", start, start + 1)
            self._pos = start + 1

    def _function(self, start: int) -> None:
        src = self.source
        name_end = self._read_name(start + 1)
        name = src[start + 1 : name_end]
        paren = name_end
        while paren < len(src) and src[paren] in WHITESPACE:
            paren += 1
        if paren < len(src) and src[paren] == "(":
            self._emit(Kind.FUNC, name, start, name_end)
            self._emit(Kind.LPAREN, "(", paren, paren + 1)
            self._pos = paren + 1
            return
        if name in FUNCTIONS:
            self._error(
                codes.EXPECTED_PAREN,
                f"function ${name} must be followed by '('",
                start,
                name_end,
            )
        else:
            self._error(
                codes.STRAY_DOLLAR,
                f"'${name}' is neither a function call nor a variable; write \\$ for a literal '$'",
                start,
                name_end,
            )
        self._pos = name_end


def tokenize(
    source: str, source_map: SourceMap | None = None
) -> tuple[list[Token], list[Diagnostic]]:
    """Tokens of ``source`` (ending with EOF) and the lexical errors found."""
    lexer = Lexer(source, source_map or SourceMap(source))
    tokens = lexer.tokenize()
    return tokens, lexer.diagnostics
