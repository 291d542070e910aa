"""Figures and chart of the content-delivery tile on the dashboard (hooks: `figures(user)`,
`chart(user)`)."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from backoffice.annotations import RequestUser
from backoffice.ui.tiles import DailyChart, Figure, chart_days, day_start, per_day
from delivery import services
from delivery.models import PublishStatus, RuleSet


def figures(user: RequestUser) -> list[Figure]:
    """Rule sets, the last publish and its outcome, today's purges.

    Contract of the hook: figures already translated, each linked to the page that lists what
    it counts; only called for users who may open the delivery pages.
    """
    if not user.has_perm("delivery.access_delivery"):
        return []
    last = services.last_publication()
    if last is None:
        published = _("never")
    else:
        when = formats.date_format(timezone.localtime(last.published_at), "Y-m-d H:i")
        published = when if last.status == PublishStatus.OK else _("%(when)s (%(status)s)") % {
            "when": when, "status": last.get_status_display()}
    requests, urls = services.purged_today()
    return [
        Figure(_("Rule sets"), str(RuleSet.objects.count()), reverse("delivery:ruleset_list")),
        Figure(_("Last publish"), published, reverse("delivery:publish")),
        Figure(_("Purges today"), _("%(requests)s (%(urls)s URLs)") % {
            "requests": requests, "urls": urls}, purge_history()),
    ]


def purge_history() -> str:
    return f"{reverse('delivery:purge')}#purge-history"


def chart(user: RequestUser) -> DailyChart | None:
    """Purge requests sent on each of the last 14 days."""
    if not user.has_perm("delivery.access_delivery"):
        return None
    days = chart_days()
    sent = services.purges_per_day(day_start(days[0]))
    return DailyChart(
        title=_("Purges per day"),
        days=days,
        values=per_day(days, {day: float(n) for day, n in sent.items()}),
        format_value=lambda value: str(int(value)),
        kind="bars",
        url=purge_history(),
    )
