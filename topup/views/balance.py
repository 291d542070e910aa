"""The balance: latest figures, the history chart and the list of snapshots."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from backoffice.operations.provider import ProviderNotConfigured
from topup import services, texts
from topup.models import SnapshotSource
from topup.services import TopupError
from topup.views.access import ADD_BALANCE_SNAPSHOT, abilities, needs

PERIODS = (1, 7, 30, 90)


@require_GET
@needs()
def balance_page(request: HttpRequest) -> HttpResponse:
    try:
        days = int(request.GET.get("days", 7))
    except ValueError:
        days = 7
    if days not in PERIODS:
        days = 7
    snapshots = services.history(days)
    return render(request, "topup/balance.html", {
        "snapshot": services.latest_snapshot(),
        "history": snapshots,  # oldest first, drawn by {% balance_chart %}
        "snapshots": list(reversed(snapshots))[:50],
        "days": days, "periods": PERIODS, **abilities(request.user),
    })


@require_POST
@needs(ADD_BALANCE_SNAPSHOT)
def balance_refresh(request: HttpRequest) -> HttpResponse:
    try:
        snapshot = services.take_snapshot(SnapshotSource.STAFF)
    except (TopupError, ProviderNotConfigured) as error:
        messages.error(request, texts.provider_error_text(error))
    else:
        messages.success(request, _("Available balance: %(amount)s yuan.") % {
            "amount": snapshot.avail_balance})
    return redirect("topup:balance")
