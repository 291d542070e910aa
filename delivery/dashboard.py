"""Figures of the content-delivery tile on the dashboard (hook: `figures(user)`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from delivery import services
from delivery.models import PublishStatus, RuleSet

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


def figures(user: User | AnonymousUser) -> list[tuple[str, str]]:
    """Rule sets, the last publish and its outcome, today's purges.

    Contract of the hook: (label, value) pairs, already translated; only called for users who
    may open the delivery pages.
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
        (_("Rule sets"), str(RuleSet.objects.count())),
        (_("Last publish"), published),
        (_("Purges today"), _("%(requests)s (%(urls)s URLs)") % {"requests": requests,
                                                                 "urls": urls}),
    ]
