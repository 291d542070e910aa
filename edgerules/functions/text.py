"""String, number and random functions.

- ``$SUB(s, from, to)`` follows Lua's ``string.sub`` (the edge's heritage): 1-based, both ends
  inclusive, negative positions count from the end, an empty ``to`` means "to the end"; it counts
  characters, not bytes.
- ``$GT``/``$GE`` compare decimal numbers; a non-number fails the rule.
- ``$EQ`` compares strings exactly (case-sensitive).
- ``$ENCODE_BASE64``/``$DECODE_BASE64`` use the standard alphabet over UTF-8; decoding accepts
  missing padding and fails the rule on invalid input or non-UTF-8 bytes.
- ``$MD5`` is lowercase hex of the UTF-8 bytes.
- ``$MATCH(s, pattern[, flag])`` is an unanchored PCRE-style search (``regex`` package); a
  non-empty flag ignores case, a left-out one is empty. Literal patterns are compiled once,
  with the rule.
- ``$RANDI(a[, b])``: integer in ``[a, b]``; with ``b`` empty or left out, in ``[0, a]``.
- ``$CAPTURE(s, pattern, flag)`` searches like ``$MATCH`` and keeps the groups as ``$n.m``
  (``n`` the call's order in the rule, ``m`` the group); an empty pattern captures the whole of
  ``s`` as ``$n.0``. It is true when it matched.
- ``$GSUB(s, old, new, n)`` replaces the text ``old`` (plain text, not a pattern: the page
  calls it "the string to replace") by ``new``, the first ``n`` times, every time when ``n`` is
  empty or negative; an empty ``old`` fails the rule.
- ``$LEN`` counts characters, like ``$SUB``. ``$ESCAPE``/``$UNESCAPE`` are JavaScript's
  ``encodeURIComponent``/``decodeURIComponent`` (as the page says); a malformed escape fails
  the rule. ``$MD5_BIN`` is the 16 bytes of the digest (see
  :class:`~edgerules.frame.BinaryText`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from functools import lru_cache
from urllib.parse import quote, unquote_to_bytes

import regex

from edgerules import diagnostics as codes
from edgerules.frame import FALSE, TRUE, BinaryText, Evaluator, Frame, to_bytes
from edgerules.functions.common import Builder, eager, evaluate_all, fail, to_integer, to_number
from edgerules.nodes import Call
from edgerules.source import Span


def _encode_base64(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return base64.b64encode(to_bytes(values[0])).decode("ascii")


def _decode_base64(frame: Frame, span: Span, values: Sequence[str]) -> str:
    text = values[0].strip()
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
        return raw.decode("utf-8")
    except (binascii.Error, ValueError):
        raise fail(
            span, codes.BAD_ARGUMENT, f"$DECODE_BASE64: {values[0]!r} is not base64 of UTF-8 text"
        ) from None


def _md5(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return hashlib.md5(to_bytes(values[0]), usedforsecurity=False).hexdigest()


def _md5_bin(frame: Frame, span: Span, values: Sequence[str]) -> str:
    digest = hashlib.md5(to_bytes(values[0]), usedforsecurity=False).digest()
    return BinaryText(digest.decode("latin-1"))


def _len(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return str(len(values[0]))


# encodeURIComponent leaves A-Z a-z 0-9 and - _ . ! ~ * ' ( ) as they are.
_URI_COMPONENT_SAFE = "-_.!~*'()"
_ESCAPE_SEQUENCE = regex.compile(r"%(?![0-9A-Fa-f]{2})")


def _escape(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return quote(to_bytes(values[0]), safe=_URI_COMPONENT_SAFE)


def _unescape(frame: Frame, span: Span, values: Sequence[str]) -> str:
    text = values[0]
    bad = _ESCAPE_SEQUENCE.search(text)
    if bad is not None:
        raise fail(
            span, codes.BAD_ARGUMENT,
            f"$UNESCAPE: malformed escape at character {bad.start() + 1} of {text!r}",
        )
    try:
        return unquote_to_bytes(text).decode("utf-8")
    except UnicodeDecodeError:
        raise fail(
            span, codes.BAD_ARGUMENT, f"$UNESCAPE: {text!r} does not decode to UTF-8 text"
        ) from None


def _gsub(frame: Frame, span: Span, values: Sequence[str]) -> str:
    text, old, new, count_text = values[0], values[1], values[2], values[3]
    if old == "":
        raise fail(span, codes.BAD_ARGUMENT, "$GSUB: E2, the text to replace, is empty")
    count = -1 if count_text.strip() == "" else to_integer(span, "GSUB", "N", count_text)
    return text.replace(old, new, count if count >= 0 else -1)


def lua_sub(text: str, start: int, end: int) -> str:
    length = len(text)
    if start < 0:
        start = max(length + start + 1, 1)
    elif start == 0:
        start = 1
    if end < 0:
        end = length + end + 1
    elif end > length:
        end = length
    return text[start - 1 : end] if start <= end else ""


def _sub(frame: Frame, span: Span, values: Sequence[str]) -> str:
    text, start_text, end_text = values[0], values[1], values[2]
    start = 1 if start_text.strip() == "" else to_integer(span, "SUB", "from", start_text)
    end = -1 if end_text.strip() == "" else to_integer(span, "SUB", "to", end_text)
    return lua_sub(text, start, end)


def _gt(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return TRUE if to_number(span, "GT", values[0]) > to_number(span, "GT", values[1]) else FALSE


def _ge(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return TRUE if to_number(span, "GE", values[0]) >= to_number(span, "GE", values[1]) else FALSE


def build_eq(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    left, right, extras = args[0], args[1], tuple(args[2:])
    if not extras:  # the most common condition: keep it to one closure call per side
        return lambda frame: TRUE if left(frame) == right(frame) else FALSE

    def evaluate(frame: Frame) -> str:
        equal = left(frame) == right(frame)
        evaluate_all(frame, extras)
        return TRUE if equal else FALSE

    return evaluate


def _upper(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return values[0].upper()


def _lower(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return values[0].lower()


@lru_cache(maxsize=256)
def compile_regex(pattern: str, ignore_case: bool) -> regex.Pattern[str]:
    """Compiled once per (pattern, flag); raises ``regex.error`` on a bad pattern."""
    return regex.compile(pattern, regex.IGNORECASE if ignore_case else 0)


def build_match(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    subject, pattern_arg, flag_arg = args[0], args[1], args[2]
    extras = tuple(args[3:])
    span = call.name_span
    fixed_pattern = call.args[1].literal_value()
    # A left-out flag (``$MATCH($_URI, '^/foo/')``) is the empty string: case matters.
    fixed_flag = call.args[2].literal_value() if len(call.args) > 2 else ""

    def compiled(pattern: str, flag: str) -> regex.Pattern[str]:
        try:
            return compile_regex(pattern, flag != "")
        except regex.error as error:
            raise fail(span, codes.BAD_REGEX, f"$MATCH: bad pattern {pattern!r}: {error}") from None

    if fixed_pattern is not None and fixed_flag is not None and not extras:
        try:
            precompiled = compile_regex(fixed_pattern, fixed_flag != "")
        except regex.error:
            pass  # reported by the linter; every evaluation fails with the message below
        else:
            return lambda frame: TRUE if precompiled.search(subject(frame)) else FALSE

    def evaluate(frame: Frame) -> str:
        text, pattern, flag = subject(frame), pattern_arg(frame), flag_arg(frame)
        evaluate_all(frame, extras)
        return TRUE if compiled(pattern, flag).search(text) else FALSE

    return evaluate


def build_capture(call: Call, args: Sequence[Evaluator]) -> Evaluator:
    subject, pattern_arg, flag_arg = args[0], args[1], args[2]
    extras = tuple(args[3:])
    span, ordinal = call.name_span, call.ordinal

    def evaluate(frame: Frame) -> str:
        text, pattern, flag = subject(frame), pattern_arg(frame), flag_arg(frame)
        evaluate_all(frame, extras)
        if pattern == "":
            frame.captures[ordinal] = (text,)
            return TRUE
        try:
            compiled = compile_regex(pattern, flag != "")
        except regex.error as error:
            raise fail(
                span, codes.BAD_REGEX, f"$CAPTURE: bad pattern {pattern!r}: {error}"
            ) from None
        found = compiled.search(text)
        if found is None:
            frame.captures.pop(ordinal, None)
            return FALSE
        frame.captures[ordinal] = (found.group(0), *found.groups())
        return TRUE

    return evaluate


def _randi(frame: Frame, span: Span, values: Sequence[str]) -> str:
    first = to_integer(span, "RANDI", "the first bound", values[0])
    if values[1].strip() == "":
        low, high = 0, first
    else:
        low, high = first, to_integer(span, "RANDI", "the second bound", values[1])
    if low > high:
        raise fail(span, codes.BAD_ARGUMENT, f"$RANDI: empty range [{low}, {high}]")
    return str(frame.ctx.rng.randint(low, high))


BUILDERS: dict[str, Builder] = {
    "ENCODE_BASE64": eager(_encode_base64),
    "DECODE_BASE64": eager(_decode_base64),
    "MD5": eager(_md5),
    "SUB": eager(_sub),
    "GT": eager(_gt),
    "GE": eager(_ge),
    "EQ": build_eq,
    "UPPER": eager(_upper),
    "LOWER": eager(_lower),
    "MATCH": build_match,
    "RANDI": eager(_randi),
    "CAPTURE": build_capture,
    "GSUB": eager(_gsub),
    "LEN": eager(_len),
    "ESCAPE": eager(_escape),
    "UNESCAPE": eager(_unescape),
    "MD5_BIN": eager(_md5_bin),
}
