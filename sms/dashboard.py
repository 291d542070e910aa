"""The SMS tile of the dashboard: quotas left, today's messages, the next scheduled campaign
and messages sent per day.

Contract (backoffice.ui.tiles): `figures(user)` gives rows of (label, value[, url]), a url being
the filtered list behind the figure; `chart(user)` the tile's 14-day chart. Another figure is
one more row appended in `figures`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.humanize.templatetags.humanize import intcomma
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from backoffice.annotations import RequestUser
from backoffice.ui.tiles import DailyChart, Figure, chart_days, per_day
from sms import services
from sms.models import CampaignState, MessageStatus


def report_today(status: str = "") -> str:
    """The delivery report of today's sends (the report's dates are those of the send)."""
    today = timezone.localdate().isoformat()
    query = {"date_from": today, "date_to": today, **({"status": status} if status else {})}
    return f"{reverse('sms:report')}?{urlencode(query)}"


def scheduled_list() -> str:
    return f"{reverse('sms:campaigns')}?{urlencode({'state': CampaignState.SCHEDULED})}"


def figures(user: RequestUser) -> list[Figure]:
    if not user.has_perm("sms.access_sms"):
        return []
    today = services.today_figures()
    quota = today["quota"]
    home = reverse("sms:index")
    rows: list[Figure] = []
    if quota is None:
        rows.append(Figure(_("Quota"), _("not fetched yet"), home))
    else:
        rows.append(Figure(_("General messages left"), intcomma(quota.general), home))
        # Short enough for one line beside an eight-digit figure in a tile.
        rows.append(Figure(_("Signature-exempt left"), intcomma(quota.vip), home))
    rows.append(Figure(_("Sent today"), intcomma(today["sent"]), report_today()))
    rows.append(Figure(_("Delivered today"), intcomma(today["success"]),
                       report_today(MessageStatus.SUCCESS)))
    rows.append(Figure(_("Failed today"), intcomma(today["failed"]),
                       report_today(MessageStatus.FAILED)))
    upcoming = services.next_scheduled_campaign()
    if upcoming is None or upcoming.scheduled_at is None:
        rows.append(Figure(_("Next scheduled campaign"), _("none"), scheduled_list()))
    else:
        rows.append(Figure(
            _("Next scheduled campaign"),
            _("#%(id)s at %(time)s") % {
                "id": upcoming.pk,
                "time": f"{timezone.localtime(upcoming.scheduled_at):%Y-%m-%d %H:%M}",
            },
            reverse("sms:campaign", args=[upcoming.pk]),
        ))
    return rows


def chart(user: RequestUser) -> DailyChart | None:
    if not user.has_perm("sms.access_sms"):
        return None
    days = chart_days()
    return DailyChart(
        title=_("Messages sent per day"),
        days=days,
        values=per_day(days, services.sent_per_day(days)),
        format_value=lambda value: str(intcomma(int(value))),
        kind="bars",
        url=reverse("sms:report"),
    )
