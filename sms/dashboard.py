"""The SMS tile of the dashboard: quotas left, today's messages and the suppression list.

Contract (backoffice.tiles): `figures(user) -> list[tuple[str, str]]` of (label, value).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.humanize.templatetags.humanize import intcomma
from django.utils.translation import gettext as _

from sms import services

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


def figures(user: User | AnonymousUser) -> list[tuple[str, str]]:
    if not user.has_perm("sms.access_sms"):
        return []
    today = services.today_figures()
    quota = today["quota"]
    rows: list[tuple[str, str]] = []
    if quota is None:
        rows.append((_("Quota"), _("not fetched yet")))
    else:
        rows.append((_("General messages left"), intcomma(quota.general)))
        rows.append((_("Signature-exempt messages left"), intcomma(quota.vip)))
    rows.append((_("Sent today"), intcomma(today["sent"])))
    rows.append((_("Delivered today"), intcomma(today["success"])))
    rows.append((_("Failed today"), intcomma(today["failed"])))
    rows.append((_("Suppressed numbers"), intcomma(services.suppressed_total())))
    return rows
