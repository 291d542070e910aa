"""Amounts of money: yuan with two decimals, held as whole fen (1/100 yuan) so no float ever
takes part in a sum."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

FEN_PER_YUAN = 100


def fen_from_yuan(value: int | float | str) -> int:
    """Exact fen of a yuan amount; ValueError when it has more than two decimals."""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"{value!r} is not an amount") from None
    if not amount.is_finite():
        raise ValueError(f"{value!r} is not an amount")
    fen = amount * FEN_PER_YUAN
    if fen != fen.to_integral_value():
        raise ValueError(f"{value} has more than two decimals")
    return int(fen)


def yuan_text(fen: int) -> str:
    """`1234` -> `12.34`; the form the provider writes amounts in (two decimals always)."""
    sign = "-" if fen < 0 else ""
    whole, cents = divmod(abs(fen), FEN_PER_YUAN)
    return f"{sign}{whole}.{cents:02d}"


def yuan_number(fen: int) -> float:
    """For the control API, where a plain JSON number is enough."""
    return float(Decimal(fen) / FEN_PER_YUAN)
