"""Money moves: freeze the price at charge, then deduct it on success or release it on failure.

Each move is one conditional UPDATE, so parallel orders can never spend the same yuan twice.
"""

from __future__ import annotations

from django.db.models import F

from sandbox.topup import config
from sandbox.topup.models import Wallet


def freeze(price_fen: int) -> bool:
    """Freeze the price if the available balance covers it; False when it does not (503)."""
    config.wallet()
    return bool(
        Wallet.objects.filter(pk=1, balance_fen__gte=F("freeze_fen") + price_fen)
        .update(freeze_fen=F("freeze_fen") + price_fen)
    )


def deduct(price_fen: int) -> None:
    """A frozen price is spent: it leaves both the balance and the frozen part."""
    Wallet.objects.filter(pk=1).update(balance_fen=F("balance_fen") - price_fen,
                                       freeze_fen=F("freeze_fen") - price_fen)


def release(price_fen: int) -> None:
    """A frozen price comes back: it leaves the frozen part only."""
    Wallet.objects.filter(pk=1).update(freeze_fen=F("freeze_fen") - price_fen)


def set_balance(balance_fen: int) -> bool:
    """Set the total balance; refused (False) below what is frozen, which is owed already."""
    config.wallet()
    return bool(Wallet.objects.filter(pk=1, freeze_fen__lte=balance_fen)
                .update(balance_fen=balance_fen))
