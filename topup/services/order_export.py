"""The order list as a CSV file: every order the list's filters select, newest first.

Streamed a line at a time (a big export never sits in memory), with sms.services' CSV writer:
a BOM so that Excel reads the Chinese, and the formula guard on every text cell (a mobile or
a provider message that starts with = + - @ is written as text). The state is written twice,
as in the delivery report: its label in the reader's language, then the code as stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.ui.csv_export import csv_lines
from topup.models import CARRIER_CHOICES, Order, OrderSource, OrderState

_FIELDS = (
    "custno", "created_at", "mobile", "carrier", "prodcode", "price", "state", "state",
    "orderno", "last_code", "last_info", "source", "requested_by__username", "batch_id",
    "batch_line", "finished_at",
)


def _headers() -> tuple[str, ...]:
    return (
        _("Order number"), _("Created at"), _("Mobile number"), _("Carrier"), _("Product"),
        _("Price (yuan)"), _("State"), _("State code"), _("Provider order number"),
        _("Last code"), _("Provider message"), _("Placed through"), _("Requested by"),
        _("Bulk batch"), _("CSV line"), _("Finished at"),
    )


def _when(value: datetime | None) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S") if value else ""


def order_csv_lines(orders: QuerySet[Order]) -> Iterator[str]:
    """The CSV of `orders` (any filtered queryset of the order list), one line at a time."""
    states = {value: str(label) for value, label in OrderState.choices}
    carriers = {value: str(label) for value, label in CARRIER_CHOICES}
    sources = {value: str(label) for value, label in OrderSource.choices}

    def row(values: tuple[Any, ...]) -> list[object]:
        (custno, created_at, mobile, carrier, prodcode, price, state, state_code, orderno,
         last_code, last_info, source, username, batch_id, batch_line, finished_at) = values
        return [
            custno, _when(created_at), mobile, carriers.get(carrier, carrier), prodcode, price,
            states.get(state, state), state_code, orderno, last_code, last_info,
            sources.get(source, source), username or "", batch_id or "",
            "" if batch_line is None else batch_line, _when(finished_at),
        ]

    rows = orders.values_list(*_FIELDS).iterator(chunk_size=2000)
    return csv_lines(_headers(), (row(values) for values in rows))
