"""The manual-confirmation queue: orders the provider answered 511 for (or that never settled),
whose outcome a top-up operator records with a reason."""

from __future__ import annotations

import logging

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from backoffice.annotations import StaffUser
from backoffice.security.audit import audited
from topup import texts
from topup.models import EventKind, Order, OrderState
from topup.services.ordering import OrderInputError
from topup.services.statemachine import move

logger = logging.getLogger(__name__)

MANUAL_OUTCOMES = {
    OrderState.SUCCESS: gettext_noop("A person confirmed the top-up succeeded: %(reason)s"),
    OrderState.FAILED: gettext_noop("A person confirmed the top-up failed: %(reason)s"),
}
MIN_REASON_LENGTH = 5


def manual_queue() -> QuerySet[Order]:
    """Orders waiting for a person, oldest first."""
    return Order.objects.filter(state=OrderState.MANUAL).select_related("product").order_by(
        "updated_at", "id")


@audited("topup", "order.manual_outcome", lambda order_id, outcome, reason, user: (
    f"order {order_id}", f"confirmed as {outcome}: {reason}", user))
def confirm_manual(order_id: int, outcome: str, reason: str, user: StaffUser) -> str:
    """Record a person's verdict on an order in the manual queue; returns the new state.

    Raises OrderInputError when the verdict is incomplete or the order has left the queue
    (a callback or a query may settle it while the operator reads).
    """
    reason = (reason or "").strip()
    if outcome not in MANUAL_OUTCOMES:
        raise OrderInputError("outcome", _("Choose whether the top-up succeeded or failed."))
    if len(reason) < MIN_REASON_LENGTH:
        raise OrderInputError("reason", texts.reason_too_short_text(MIN_REASON_LENGTH))
    target = OrderState(outcome)
    moved = move(
        order_id, target, sources=frozenset({OrderState.MANUAL}), kind=EventKind.MANUAL,
        message=MANUAL_OUTCOMES[target], params={"reason": reason[:1000]}, actor=user,
        settled_manually=True,
    )
    if moved is None:
        state = Order.objects.values_list("state", flat=True).get(pk=order_id)
        raise OrderInputError(
            "outcome",
            _("This order is no longer waiting for confirmation; its state is now “%(state)s”.")
            % {"state": OrderState(state).label},
        )
    logger.info("top-up order %s confirmed as %s by %s", order_id, outcome, user)
    return target
