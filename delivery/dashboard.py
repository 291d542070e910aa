"""Figures and chart of the content-delivery tile on the dashboard (hooks: `figures(user)`,
`chart(user)`), for the person's chosen domain (the default domain for a person who never
chose one), named in the figures."""

from __future__ import annotations

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backoffice.annotations import RequestUser
from backoffice.operations.provider import ProviderNotConfigured
from backoffice.ui.tiles import DailyChart, Figure, chart_days, day_start, per_day
from console.models import Domain
from delivery import services
from delivery.models import PublishStatus, RuleSet


def figures(user: RequestUser) -> list[Figure]:
    """Rule sets, the last publish and its outcome, today's purges.

    Contract of the hook: figures already translated, each linked to the page that lists what
    it counts; only called for users who may open the delivery pages.
    """
    if not _may_see(user):
        return []
    domain = _domain(user)
    if domain is None:
        return [Figure(_("Domain"), _("none yet"), reverse("delivery:index"))]
    last = services.last_publication(domain)
    if last is None:
        published = _("never")
    else:
        when = formats.date_format(timezone.localtime(last.published_at), "Y-m-d H:i")
        published = when if last.status == PublishStatus.OK else _("%(when)s (%(status)s)") % {
            "when": when, "status": last.get_status_display()}
    requests, urls = services.purged_today(domain)
    return [
        Figure(_("Domain"), domain.name, reverse("delivery:index")),
        Figure(_("Rule sets"), str(RuleSet.objects.filter(domain=domain).count()),
               reverse("delivery:ruleset_list")),
        Figure(_("Last publish"), published, reverse("delivery:publish")),
        Figure(_("Purges today"), _("%(requests)s (%(urls)s URLs)") % {
            "requests": requests, "urls": urls}, purge_history()),
        *certificate_notices(),
    ]


def certificate_notices() -> list[Figure]:
    """A notice per bound certificate the daily job warned about (30, then 7 days before it
    expires), naming its domains and the days left; none when nothing expires soon."""
    notices = []
    for _certificate, left, domains in services.expiring_certificates():
        text = (ngettext("expires in %(days)s day: %(domains)s",
                         "expires in %(days)s days: %(domains)s", left)
                if left >= 0 else _("expired: %(domains)s")) % {
            "days": left, "domains": ", ".join(domains)}
        notices.append(Figure(_("Certificate"), text, reverse("delivery:https")))
    return notices


def _may_see(user: RequestUser) -> bool:
    return user.is_authenticated and user.has_perm("delivery.access_delivery")


def _domain(user: RequestUser) -> Domain | None:
    """The domain the tile shows (the person's choice, else the default one); None when the
    account has no domain yet."""
    if not user.is_authenticated:
        return None
    try:
        return services.page_domain(user)
    except ProviderNotConfigured:
        return None


def purge_history() -> str:
    return f"{reverse('delivery:purge')}#purge-history"


def chart(user: RequestUser) -> DailyChart | None:
    """Purge requests sent on each of the last 14 days (none before any domain exists)."""
    if not _may_see(user):
        return None
    domain = _domain(user)
    days = chart_days()
    sent = services.purges_per_day(domain, day_start(days[0])) if domain is not None else {}
    return DailyChart(
        title=(_("Purges per day on %(domain)s") % {"domain": domain.name} if domain
               else _("Purges per day")),
        days=days,
        values=per_day(days, {day: float(n) for day, n in sent.items()}),
        format_value=lambda value: str(int(value)),
        kind="bars",
        url=purge_history(),
    )
