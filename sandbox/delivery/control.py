"""Control endpoints of the edge (control port, under /delivery/): the published settings and
the edge cache, for the back-office's publish step and for tests."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from sandbox.core.jsonapi import FieldError, json_body
from sandbox.delivery import config, config_input
from sandbox.delivery.cache import EDGE_CACHE


@csrf_exempt
@require_http_methods(["GET", "POST"])
def config_view(request: HttpRequest) -> JsonResponse:
    """GET: the full current settings. POST: change the keys given, answer the full settings.

    A change empties the edge cache: what was cached may have been made under other versions,
    minification or combining settings."""
    if request.method == "POST":
        try:
            changes = config_input.changes_from(json_body(request))
        except FieldError as error:
            return error.response()
        config.save(changes)
        EDGE_CACHE.clear()
    return JsonResponse(config.published().answer())


@csrf_exempt
@require_http_methods(["GET", "DELETE"])
def cache_view(request: HttpRequest) -> JsonResponse:
    """GET: what the edge holds (`{"entries": [...]}`); DELETE: empty it (`{"deleted": n}`)."""
    if request.method == "DELETE":
        return JsonResponse({"deleted": EDGE_CACHE.clear()})
    return JsonResponse({"entries": [entry.describe() for entry in EDGE_CACHE.entries()]})
