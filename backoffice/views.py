from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView

from backoffice.menus import visible_services
from backoffice.models import ProviderContact
from backoffice.services import SERVICES
from backoffice.tiles import build_tiles


def dashboard(request: HttpRequest) -> HttpResponse:
    tiles = build_tiles(visible_services(request.user), request.user)
    return render(request, "backoffice/dashboard.html", {"tiles": tiles})


class ServiceOverviewView(TemplateView):
    """A service's home page: where the back-office reaches the provider and how it went."""

    template_name = "backoffice/service_overview.html"
    service_key = ""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        service = next(s for s in SERVICES if s.key == self.service_key)
        if not self.request.user.has_perm(service.access_permission):
            raise PermissionDenied
        provider = settings.PROVIDER[service.key]
        endpoints = [(key, value) for key, value in provider.items() if key.endswith("url")]
        configured = all(value for _, value in provider.items())
        return {
            **super().get_context_data(**kwargs),
            "service": service,
            "endpoints": endpoints,
            "configured": configured,
            "contact": ProviderContact.objects.filter(service=service.key).first(),
        }


@login_not_required
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Liveness for process supervisors: the app is up and its database answers."""
    ProviderContact.objects.exists()
    return JsonResponse({"ok": True})
