import hmac
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView
from prometheus_client import CONTENT_TYPE_LATEST

from backoffice import metrics
from backoffice.menus import visible_services
from backoffice.models import ProviderContact
from backoffice.readiness import run_checks
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
    """Liveness for process supervisors: the process answers (no database, no cache, so a
    database outage does not get every web process restarted)."""
    return JsonResponse({"ok": True})


@login_not_required
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    """Readiness for load balancers and operators: 200 when every check holds, else 503 with
    `failed` naming each check that did not."""
    checks = run_checks()
    failed = [name for name, check in checks.items() if not check.ok]
    return JsonResponse(
        {"ready": not failed, "failed": failed,
         "checks": {name: check.as_json() for name, check in checks.items()}},
        status=503 if failed else 200,
    )


@login_not_required
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus text behind `Authorization: Bearer <METRICS_TOKEN>`; 404 when no token is
    configured (the endpoint does not exist), 401 without the right token."""
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404("metrics are off: METRICS_TOKEN is not set")
    given = request.headers.get("Authorization", "")
    scheme, _, value = given.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(),
                                                             token.encode()):
        answer = HttpResponse(gettext("A bearer token is required."), status=401,
                              content_type="text/plain; charset=utf-8")
        answer["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return answer
    return HttpResponse(metrics.render(), content_type=CONTENT_TYPE_LATEST)
