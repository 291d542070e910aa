"""The endpoints of operators and their tools: liveness, readiness and Prometheus metrics."""

import hmac

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from backoffice.operations import metrics
from backoffice.operations.public_answers import same_for_everyone
from backoffice.operations.readiness import assess


@same_for_everyone
@login_not_required
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Liveness for process supervisors: the process answers (no database, no cache, so a
    database outage does not get every web process restarted)."""
    return JsonResponse({"ok": True})


@same_for_everyone
@login_not_required
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    """Readiness for load balancers and operators: 200 when every check holds or only
    degrades (the cache, the broker: listed under `degraded`), else 503 naming each cause
    under `failed` (a database outage as `database` alone, see readiness.py).

    Anyone gets `{"ready": true|false}`: a load balancer needs no more. `failed` (each check
    that did not hold) and `checks` (every check's detail) go only to a caller holding the
    metrics token, as `/metrics` does: the details carry exception text, addresses and the
    times of provider contact, which are for operators, not for whoever can reach the port.
    """
    readiness = assess()
    status = 200 if readiness.ready else 503
    if not holds_metrics_token(request):
        return JsonResponse({"ready": readiness.ready}, status=status)
    return JsonResponse(
        {"ready": readiness.ready, "failed": readiness.failed, "degraded": readiness.degraded,
         "checks": {name: check.as_json() for name, check in readiness.checks.items()}},
        status=status,
    )


def holds_metrics_token(request: HttpRequest) -> bool:
    """`Authorization: Bearer <METRICS_TOKEN>`, compared in constant time; never true while no
    token is configured."""
    token = settings.METRICS_TOKEN
    if not token:
        return False
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(),
                                                               token.encode())


@same_for_everyone
@login_not_required
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus text behind `Authorization: Bearer <METRICS_TOKEN>`; 404 when no token is
    configured (the endpoint does not exist), 401 without the right token."""
    if not settings.METRICS_TOKEN:
        raise Http404("metrics are off: METRICS_TOKEN is not set")
    if not holds_metrics_token(request):
        answer = HttpResponse(gettext("A bearer token is required."), status=401,
                              content_type="text/plain; charset=utf-8")
        answer["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return answer
    return HttpResponse(metrics.render(), content_type=CONTENT_TYPE_LATEST)
