"""Counts for the metrics endpoint: orders by state, callbacks by verdict."""

from __future__ import annotations

from django.db.models import Count

from topup.models import CallbackReceipt, Order


def orders_by_state() -> dict[str, int]:
    return dict(Order.objects.values_list("state").annotate(n=Count("pk")).order_by())


def callbacks_by_verdict() -> dict[str, int]:
    return dict(CallbackReceipt.objects.values_list("outcome").annotate(n=Count("pk")).order_by())
