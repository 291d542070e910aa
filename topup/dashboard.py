"""Figures and chart of the top-up tile on the dashboard (hooks: `figures(user)`,
`chart(user)`)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from backoffice.annotations import RequestUser
from backoffice.ui.tiles import DailyChart, Figure, chart_days, day_start, per_day
from topup.models import OrderState
from topup.services import (
    daily_balance,
    latest_snapshot,
    operator_attention,
    today_and_waiting,
)


def orders_today(state: str = "") -> str:
    """The order list filtered to today's orders (and one state)."""
    today = timezone.localdate().isoformat()
    query = {**({"state": state} if state else {}), "date_from": today, "date_to": today}
    return f"{reverse('topup:order_list')}?{urlencode(query)}"


def figures(user: RequestUser) -> list[Figure]:
    """Available balance, today's orders by outcome (counted at most once a minute), and
    orders waiting for a person.

    Contract of the hook: figures already translated, each linked to the list behind it; only
    called for users who may open the top-up pages. "In progress" covers several states, which
    the order list cannot filter on at once: it links to all of today's orders.
    """
    if not user.has_perm("topup.access_topup"):
        return []
    balance_page = reverse("topup:balance")
    snapshot = latest_snapshot()
    if snapshot is None:
        balance_rows = [Figure(_("Available balance"), _("not checked yet"), balance_page)]
    else:
        # The amount and the time of the reading on rows of their own: together they were too
        # wide for one line beside the label.
        taken = timezone.localtime(snapshot.taken_at)
        balance_rows = [
            Figure(_("Available balance"), _("%(amount)s yuan") % {
                "amount": formats.number_format(snapshot.avail_balance, 2,
                                                force_grouping=True)}, balance_page),
            Figure(_("Balance checked"), formats.date_format(
                taken, "H:i" if taken.date() == timezone.localdate() else "Y-m-d H:i"),
                balance_page),
        ]
    today, waiting = today_and_waiting(day_start(timezone.localdate()))
    succeeded = today.get(OrderState.SUCCESS, 0)
    failed = today.get(OrderState.FAILED, 0)
    open_today = sum(today.values()) - succeeded - failed
    attention = operator_attention()
    attention_rows = [] if attention is None else [Figure(
        _("Needs an operator"),
        _("code %(code)s: %(meaning)s") % {"code": attention.help.code,
                                           "meaning": attention.help.meaning},
        reverse("topup:order_detail", args=[attention.order.custno]))]
    return [
        *attention_rows,
        *balance_rows,
        Figure(_("Today: succeeded"), str(succeeded), orders_today(OrderState.SUCCESS)),
        Figure(_("Today: failed"), str(failed), orders_today(OrderState.FAILED)),
        Figure(_("Today: in progress"), str(open_today), orders_today()),
        Figure(_("Waiting for a person"), str(waiting), reverse("topup:manual_queue")),
    ]


def chart(user: RequestUser) -> DailyChart | None:
    """The available balance at the end of each of the last 14 days (today: the latest)."""
    if not user.has_perm("topup.access_topup"):
        return None
    days = chart_days()
    balances = daily_balance(day_start(days[0]))
    return DailyChart(
        title=_("Available balance (yuan)"),
        days=days,
        values=per_day(days, {day: float(amount) for day, amount in balances.items()}, None),
        format_value=lambda value: str(formats.number_format(value, 2)),
        kind="line",
        url=reverse("topup:balance"),
    )
