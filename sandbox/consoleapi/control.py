"""Control endpoints of the console (control port, under /console/): services for tests and
demo data (a person creates them in the real console), and the storage lines' request counts.

Errors are the control API's: `{"error", "field"}` with 400 for a bad field, 409 when the name
or a domain is taken, 404 for an unknown service.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from sandbox.console.models import Service
from sandbox.consoleapi import services
from sandbox.consoleapi.errors import STATUS, ConsoleError
from sandbox.core import lines
from sandbox.core.jsonapi import FieldError, json_body


def control_error(error: ConsoleError) -> JsonResponse:
    return JsonResponse({"error": error.message, "field": error.field},
                        status=STATUS[error.code])


def described(service: Service) -> dict[str, object]:
    return {**services.service_json(service), "origins": service.origins,
            "operators": {operator.name: operator.password
                          for operator in service.operators.all()}}


@csrf_exempt
@require_http_methods(["GET", "POST"])
def services_view(request: HttpRequest) -> JsonResponse:
    """GET: every service, newest first. POST: create one (201)."""
    if request.method == "GET":
        rows = Service.objects.prefetch_related("domains", "operators")
        return JsonResponse({"services": [described(service) for service in rows]})
    try:
        service = services.create(json_body(request))
    except FieldError as error:
        return error.response()
    except ConsoleError as error:
        return control_error(error)
    return JsonResponse(described(service), status=201)


@csrf_exempt
@require_http_methods(["DELETE"])
def service_view(request: HttpRequest, name: str) -> JsonResponse:
    """Delete a service, its operators and domains (their edge settings and cache go too)."""
    try:
        services.delete(services.find(name))
    except ConsoleError as error:
        return control_error(error)
    return JsonResponse({"deleted": name})


@require_http_methods(["GET"])
def lines_view(request: HttpRequest) -> JsonResponse:
    """Storage requests per entry line since the last reset."""
    return JsonResponse({"lines": lines.counts()})
