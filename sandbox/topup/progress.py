"""Orders reach their outcome: `201` becomes the planned code once `due_at` has passed, the
frozen price is deducted or released, and the callback is scheduled, all in one transaction."""

from __future__ import annotations

from django.db import transaction

from sandbox.topup import callbacks, codes, wallet
from sandbox.topup.models import Order


class NotAwaitingConfirmation(Exception):
    """The order is not at 511, so there is nothing to confirm."""


def settle_due(now: float, custno: str | None = None) -> None:
    """Finish every order due by `now` (or only the one with `custno`). Idempotent: each order
    is finished by a conditional update that only one caller can win."""
    due = Order.objects.filter(code=codes.IN_PROGRESS, due_at__lte=now)
    if custno is not None:
        due = due.filter(custno=custno)
    for order_id in due.values_list("id", flat=True):
        finish(order_id)


def finish(order_id: int) -> None:
    with transaction.atomic():
        order = Order.objects.get(pk=order_id)
        moved = Order.objects.filter(pk=order_id, code=codes.IN_PROGRESS).update(
            code=order.planned_code, finished_at=order.due_at)
        if not moved:
            return
        settle_money(order, order.planned_code)
        callbacks.schedule(order, order.planned_code, known_at=order.due_at)


def settle_money(order: Order, code: str) -> None:
    if code == codes.SUCCESS:
        wallet.deduct(order.price_fen)
    elif code in codes.FAILURES:
        wallet.release(order.price_fen)
    # 511: the outcome is unknown until confirmed by hand, so the price stays frozen.


def resolve_manual(custno: str, succeeded: bool, now: float) -> Order:
    """Confirm by hand an order left at 511 (control API): it becomes 200 or 530, its money
    moves and a new callback goes out."""
    code = codes.SUCCESS if succeeded else codes.TOPUP_FAILED
    settle_due(now, custno)  # an order due to end at 511 must be there before we look
    with transaction.atomic():
        order = Order.objects.filter(custno=custno).first()
        if order is None:
            raise LookupError(f"no order with custno {custno}")
        moved = Order.objects.filter(pk=order.pk, code=codes.MANUAL_CONFIRMATION).update(
            code=code, finished_at=now)
        if not moved:
            raise NotAwaitingConfirmation(
                f"order {custno} is at {order.code}, not awaiting manual confirmation (511)")
        settle_money(order, code)
        callbacks.schedule(order, code, known_at=now)
        order.refresh_from_db()
    return order
