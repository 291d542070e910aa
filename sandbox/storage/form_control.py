"""Control endpoints of the storage port's browser side (control port, under /storage/).

    GET  /storage/cors            {"origins": [...]}: the origins allowed to call from a browser
    POST /storage/cors            {"origins": ["http://127.0.0.1:8000"] | ["*"] | null}: replace
                                  them (null: back to SANDBOX_STORAGE_CORS_ORIGINS)
    GET  /storage/notifications   the FORM API's notify-url calls, queued and made
    GET  /storage/tasks           the FORM API's apps tasks, queued and done, with their outcome
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from sandbox.core.jsonapi import FieldError, json_body
from sandbox.storage import cors, form_apps, form_notify


@csrf_exempt
@require_http_methods(["GET", "POST"])
def cors_origins(request: HttpRequest) -> JsonResponse:
    if request.method == "POST":
        try:
            body = json_body(request)
            unknown = sorted(set(body) - {"origins"})
            if unknown:
                raise FieldError(unknown[0], "is not a CORS field")
            cors.set_allowed_origins(origins(body.get("origins")))
        except FieldError as error:
            return error.response()
    return JsonResponse({"origins": list(cors.allowed_origins())})


def origins(value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value or \
            not all(isinstance(item, str) and item.strip() for item in value):
        raise FieldError("origins", "must be a non-empty list of origins "
                                    "(http://host:port) or [\"*\"], or null")
    for item in value:
        if item != cors.ANY and not item.startswith(("http://", "https://")):
            raise FieldError("origins", f"{item!r} is not an origin such as "
                                        "http://127.0.0.1:8000")
    return cors.parse(",".join(value))


@require_http_methods(["GET"])
def notifications(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"notifications": form_notify.reports()})


@require_http_methods(["GET"])
def tasks(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"tasks": form_apps.reports()})
