"""Figures of the top-up tile on the dashboard (hook: `figures(user)`)."""

from __future__ import annotations

from datetime import datetime, time
from typing import TYPE_CHECKING

from django.db.models import Count
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from topup.models import Order, OrderState
from topup.services import latest_snapshot

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


def figures(user: User | AnonymousUser) -> list[tuple[str, str]]:
    """Available balance, today's orders by outcome, and orders waiting for a person.

    Contract of the hook: (label, value) pairs, already translated; only called for users who
    may open the top-up pages.
    """
    if not user.has_perm("topup.access_topup"):
        return []
    snapshot = latest_snapshot()
    if snapshot is None:
        balance = _("not checked yet")
    else:
        balance = _("%(amount)s yuan at %(time)s") % {
            "amount": formats.number_format(snapshot.avail_balance, 2),
            "time": formats.date_format(timezone.localtime(snapshot.taken_at), "H:i"),
        }
    start = timezone.make_aware(datetime.combine(timezone.localdate(), time.min))
    today = dict(
        Order.objects.filter(created_at__gte=start).values_list("state")
        .annotate(n=Count("id")).values_list("state", "n")
    )
    succeeded = today.get(OrderState.SUCCESS, 0)
    failed = today.get(OrderState.FAILED, 0)
    open_today = sum(today.values()) - succeeded - failed
    waiting = Order.objects.filter(state=OrderState.MANUAL).count()
    return [
        (_("Available balance"), balance),
        (_("Today: succeeded"), str(succeeded)),
        (_("Today: failed"), str(failed)),
        (_("Today: in progress"), str(open_today)),
        (_("Waiting for a person"), str(waiting)),
    ]
