"""Whether the provider's latest answer asks an operator to act (our address, credentials,
account or balance: topup.services.codes), for the dashboard and `/ready`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from topup.models import Order
from topup.services.codes import CodeHelp, code_help

# An answer older than this says nothing about now: nobody topped up since.
RECENT = timedelta(hours=24)


@dataclass(frozen=True)
class Attention:
    order: Order
    help: CodeHelp


def operator_attention() -> Attention | None:
    """The newest order the provider answered in the last day, when its code is one an
    operator must act on; None once a later answer (a success) shows the cause is gone."""
    latest = (Order.objects.exclude(last_code="")
              .filter(updated_at__gte=timezone.now() - RECENT)
              .order_by("-updated_at", "-pk").first())
    if latest is None:
        return None
    found = code_help(latest.last_code)
    if found is None or not found.operator_must_act:
        return None
    return Attention(latest, found)
