"""The SMS home page: provider connection, quotas, today's figures and every SMS page."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from backoffice.annotations import StaffRequest
from backoffice.ui.dashboard import ServiceOverviewView
from sms import services
from sms.models import Campaign
from sms.views.access import abilities, needs


@needs()
def index(request: StaffRequest) -> HttpResponse:
    overview = ServiceOverviewView(service_key="sms", request=request)
    context = overview.get_context_data()
    context.update(
        today=services.today_figures(),
        recent_campaigns=Campaign.objects.select_related("template")[:5],
        suppressed_total=services.suppressed_total(),
        **abilities(request.user),
    )
    return render(request, "sms/index.html", context)
