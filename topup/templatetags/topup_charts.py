"""`{% balance_chart snapshots %}`: the balance page's history chart, drawn as inline SVG on the
server as the dashboard's sparklines are: charts are the templates' business, so the services
return the snapshots only.

The drawing itself is the pure `topup.chart` (no Django), which escapes every text it writes;
this tag gives it the translated labels and the locale's number and date formats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal

from django import template
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from topup.chart import Number, Series, line_chart_svg
from topup.models import BalanceSnapshot

register = template.Library()


def _when(moment: datetime) -> str:
    return str(formats.date_format(timezone.localtime(moment), "m-d H:i"))


def _money(value: Number) -> str:
    return formats.number_format(Decimal(str(value)), 2)


def _tick(value: float, step: float) -> str:
    # As many decimals as the round step needs: 1,000 not 1,000.00, but 0.5 stays.
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    return formats.number_format(Decimal(str(value)), decimals)


@register.simple_tag
def balance_chart(snapshots: Sequence[BalanceSnapshot]) -> SafeString:
    """The balance and the available balance over time (oldest first), as inline SVG."""
    svg = line_chart_svg(
        [
            Series(_("Balance"), [(s.taken_at, s.balance) for s in snapshots], "balance"),
            Series(_("Available"), [(s.taken_at, s.avail_balance) for s in snapshots],
                   "available"),
        ],
        title=_("Balance history (yuan)"),
        format_time=_when,
        format_value=_money,
        format_tick=_tick,
        empty_text=_("No balance recorded yet."),
    )
    return mark_safe(svg)  # noqa: S308 - every text in it was escaped by topup.chart
