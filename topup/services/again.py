"""Top up again: a failed order's mobile and product placed as a new order (a new custno).

The failed order stays as it is (a final state never moves); both timelines name the other.
A failed order is topped up again once: a repeated request (a double click, a resent form)
returns the order the first one placed, so that staff never pay twice by accident. When that
one fails too, it has its own "top up again".
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from backoffice.annotations import StaffUser
from topup.models import EventKind, Order, OrderSource, OrderState
from topup.services.ordering import OrderInputError, OrderRequest, place_order
from topup.services.statemachine import log


def again_request(order: Order) -> OrderRequest:
    """What the new order asks for: the failed order's number, product and options."""
    moved = bool(order.carrier) and order.product.carrier != order.carrier
    return OrderRequest(
        mobile=order.mobile,
        product_code=order.prodcode,
        prodtime=order.prodtime,
        prodstandard=order.prodstandard,
        # The failed order was accepted for this number; a number that had moved carrier
        # was allowed then, so it is again.
        allow_other_carrier=moved,
    )


def topped_up_again_as(order: Order) -> str:
    """The custno of the order that topped this one up again, or "" if none did."""
    event = (
        order.events.filter(kind=EventKind.NOTE, params__has_key="again")
        .order_by("id")
        .first()
    )
    return str(event.params["again"]) if event else ""


def top_up_again(order_id: int, *, requested_by: StaffUser) -> tuple[Order, bool]:
    """(new order, True) when placed now; (that order, False) when this failed order was
    topped up again before. OrderInputError when the order has not failed, or its product
    can no longer be ordered (off sale, say)."""
    with transaction.atomic():
        # The row lock makes two simultaneous requests place one order between them.
        failed = Order.objects.select_for_update().select_related("product").get(pk=order_id)
        if failed.state != OrderState.FAILED:
            raise OrderInputError(
                "order",
                _("Only a failed order can be topped up again; order %(custno)s is in the "
                  "state “%(state)s”.") % {"custno": failed.custno,
                                          "state": failed.get_state_display()},
            )
        earlier = topped_up_again_as(failed)
        if earlier:
            return Order.objects.get(custno=earlier), False
        order = place_order(
            again_request(failed), requested_by=requested_by, source=OrderSource.SINGLE
        )
        log(failed.pk, EventKind.NOTE, gettext_noop("Topped up again as order %(custno)s."),
            params={"custno": order.custno, "again": order.custno}, actor=requested_by)
        log(order.pk, EventKind.NOTE, gettext_noop("Top-up again of failed order %(custno)s."),
            params={"custno": failed.custno}, actor=requested_by)
    return order, True
