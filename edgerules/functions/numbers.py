"""Numbers and times of the public page (cdn/edgerules.md): ``$ADD $MSUB $MULTIPLY $DIVIDE
$MOD $FLOOR $CEIL $BYTE $INT $UNIXT $STRF_TIME``.

- Arithmetic is decimal and exact for ``+ - *``; a result that is a whole number is written
  without a decimal point (``$ADD(1.5, 1.5)`` is ``3``), any other without trailing zeros.
- ``$DIVIDE`` keeps 14 significant digits, as the edge's Lua prints numbers (``1/3`` is
  ``0.33333333333333``). ``$MOD`` is Lua's ``%``: the result has the divisor's sign
  (``$MOD(-7, 3)`` is ``2``). A zero divisor (the page: "E2 不能为 0") fails the rule with
  ``division-by-zero``; a failed rule leaves no effect and the later rules run.
- ``$BYTE(E)`` is the value of E's first byte (Lua's ``string.byte``); an empty E fails.
- ``$INT(E1[, E2[, E3]])`` reads E1 in base E2 and writes it in base E3 (2 to 36, both 10 when
  left out or empty), digits above 9 in lower case, a leading ``-`` kept.
- ``$UNIXT`` and ``$STRF_TIME`` use UTC (the page names no time zone; UTC makes the two
  inverse of each other and ``$_TIME`` comparable). ``$STRF_TIME`` writes year, month, day,
  hour and minute, joined by E2 (``201802230955``, or ``2018-02-23-09-55`` with ``-``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal, InvalidOperation

from edgerules import diagnostics as codes
from edgerules.frame import Frame, to_bytes
from edgerules.functions.common import Builder, eager, fail, to_integer, to_number
from edgerules.source import Span

_DIVISION = Context(prec=14)
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_BASES = range(2, 37)
_LAST_TIME = 253402300799  # 9999-12-31T23:59:59Z: the last time a date can be written for


def format_number(value: Decimal) -> str:
    """``3`` for a whole number, ``2.5`` otherwise (never an exponent)."""
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def _operands(span: Span, function: str, values: Sequence[str]) -> tuple[Decimal, Decimal]:
    return to_number(span, function, values[0]), to_number(span, function, values[1])


def _divisor(span: Span, function: str, value: str) -> Decimal:
    divisor = to_number(span, function, value)
    if divisor == 0:
        raise fail(span, codes.DIVISION_BY_ZERO, f"${function}: E2 is zero ({value!r})")
    return divisor


def _add(frame: Frame, span: Span, values: Sequence[str]) -> str:
    first, second = _operands(span, "ADD", values)
    return format_number(first + second)


def _msub(frame: Frame, span: Span, values: Sequence[str]) -> str:
    first, second = _operands(span, "MSUB", values)
    return format_number(first - second)


def _multiply(frame: Frame, span: Span, values: Sequence[str]) -> str:
    first, second = _operands(span, "MULTIPLY", values)
    return format_number(first * second)


def _divide(frame: Frame, span: Span, values: Sequence[str]) -> str:
    dividend = to_number(span, "DIVIDE", values[0])
    divisor = _divisor(span, "DIVIDE", values[1])
    return format_number(_DIVISION.divide(dividend, divisor))


def _mod(frame: Frame, span: Span, values: Sequence[str]) -> str:
    dividend = to_number(span, "MOD", values[0])
    divisor = _divisor(span, "MOD", values[1])
    quotient = (dividend / divisor).to_integral_value(rounding=ROUND_FLOOR)
    return format_number(dividend - quotient * divisor)


def _floor(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return format_number(to_number(span, "FLOOR", values[0]).to_integral_value(ROUND_FLOOR))


def _ceil(frame: Frame, span: Span, values: Sequence[str]) -> str:
    return format_number(to_number(span, "CEIL", values[0]).to_integral_value(ROUND_CEILING))


def _byte(frame: Frame, span: Span, values: Sequence[str]) -> str:
    data = to_bytes(values[0])
    if not data:
        raise fail(span, codes.BAD_ARGUMENT, "$BYTE: E is empty")
    return str(data[0])


def _base(span: Span, what: str, value: str) -> int:
    if value.strip() == "":
        return 10
    base = to_integer(span, "INT", what, value)
    if base not in _BASES:
        raise fail(span, codes.BAD_ARGUMENT, f"$INT: {what} must be from 2 to 36, got {base}")
    return base


def in_base(number: int, base: int) -> str:
    if number == 0:
        return "0"
    sign, number = ("-", -number) if number < 0 else ("", number)
    digits = []
    while number:
        number, digit = divmod(number, base)
        digits.append(_DIGITS[digit])
    return sign + "".join(reversed(digits))


def _int(frame: Frame, span: Span, values: Sequence[str]) -> str:
    source = _base(span, "E2 (the base of E1)", values[1])
    target = _base(span, "E3 (the base of the result)", values[2])
    text = values[0].strip().lower()
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or any(_DIGITS.find(digit) not in range(source) for digit in digits):
        raise fail(
            span, codes.BAD_ARGUMENT, f"$INT: {values[0]!r} is not a number in base {source}"
        )
    return in_base(int(text, source), target)


_UNIXT_PARTS = ("y (year)", "m (month)", "d (day)", "h (hour)", "min (minute)", "sec (second)")


def _unixt(frame: Frame, span: Span, values: Sequence[str]) -> str:
    parts = [
        to_integer(span, "UNIXT", what, value)
        for what, value in zip(_UNIXT_PARTS, values, strict=False)
    ]
    try:
        year, month, day, hour, minute, second = parts
        moment = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except (ValueError, OverflowError) as error:
        raise fail(span, codes.BAD_ARGUMENT, f"$UNIXT: not a date and time ({error})") from None
    return str(int(moment.timestamp()))


def _strf_time(frame: Frame, span: Span, values: Sequence[str]) -> str:
    try:
        seconds = int(to_number(span, "STRF_TIME", values[0]).to_integral_value(ROUND_FLOOR))
    except InvalidOperation:  # pragma: no cover - to_number only gives finite numbers
        seconds = -1
    if not 0 <= seconds <= _LAST_TIME:
        raise fail(span, codes.BAD_ARGUMENT, f"$STRF_TIME: {values[0]!r} is not a UNIX time")
    moment = datetime.fromtimestamp(seconds, tz=UTC)
    separator = values[1]
    return separator.join(
        (f"{moment.year:04d}", f"{moment.month:02d}", f"{moment.day:02d}", f"{moment.hour:02d}",
         f"{moment.minute:02d}")
    )


BUILDERS: dict[str, Builder] = {
    "ADD": eager(_add),
    "MSUB": eager(_msub),
    "MULTIPLY": eager(_multiply),
    "DIVIDE": eager(_divide),
    "MOD": eager(_mod),
    "FLOOR": eager(_floor),
    "CEIL": eager(_ceil),
    "BYTE": eager(_byte),
    "INT": eager(_int),
    "UNIXT": eager(_unixt),
    "STRF_TIME": eager(_strf_time),
}
