"""The dashboard and the overview page every service's home builds on."""

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.views.generic import TemplateView

from backoffice.annotations import StaffRequest
from backoffice.catalogue import SERVICES
from backoffice.models import ProviderContact
from backoffice.ui.menus import visible_services
from backoffice.ui.tiles import build_tiles


def dashboard(request: StaffRequest) -> HttpResponse:
    tiles = build_tiles(visible_services(request.user), request.user)
    return render(request, "backoffice/dashboard.html", {"tiles": tiles})


class ServiceOverviewView(TemplateView):
    """A service's home page: whether the back-office reaches the provider and how it went.

    The provider's addresses are left out: they are operators' settings, shown on the
    readiness page, and a staff page says things in words."""

    template_name = "backoffice/service_overview.html"
    service_key = ""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        service = next(s for s in SERVICES if s.key == self.service_key)
        if not self.request.user.has_perm(service.access_permission):
            raise PermissionDenied
        provider = settings.PROVIDER[service.key]
        configured = all(value for _, value in provider.items())
        return {
            **super().get_context_data(**kwargs),
            "service": service,
            "configured": configured,
            "contact": ProviderContact.objects.filter(service=service.key).first(),
        }
